"""The 0/1 knapsack as an integer program, solved by CBC through PuLP.

Built directly from the instance -- nothing of ckn is used here::

    maximise   Σ v_i x_i
    subject to Σ w_i x_i ≤ budget,   x_i ∈ {0, 1}

All coefficients are Python ints, so the model file carries them exactly. CBC is run with a zero
relative and absolute optimality gap, an integrality tolerance of 1e-9 and ``msg=False``. Its
status is read from the solution status (``sol_status``): PuLP maps a run stopped on the time
limit *with* an incumbent to status "Optimal" but solution status "integer feasible", and such
a run proves nothing, so it is reported as not proven.

Callers must not trust the objective CBC reports: :func:`solve_ilp` returns CBC's selection
(``x_i > 0.5``) and the caller recomputes its weight and value from the instance.
"""

from __future__ import annotations

from dataclasses import dataclass

import os
import shutil

__all__ = ["IlpResult", "cbc_path", "solve_ilp", "solve_ilp_wide", "solve_min_weight"]


@dataclass(frozen=True)
class IlpResult:
    indices: tuple[int, ...]  # CBC's selection, ascending
    proven: bool              # CBC proved optimality (solution status "optimal")
    status: str               # human-readable CBC/PuLP status
    objective: float | None   # CBC's own objective figure (informational only)
    max_fractionality: float  # largest |x_i - round(x_i)| in CBC's answer


def cbc_path() -> str | None:
    """The CBC executable: ``$CKN_VERIFY_CBC``, else ``cbc`` on PATH (``pip install pulp[cbc]``
    provides one), else the binary bundled with PuLP < 4 (used through ``COIN_CMD``, since
    ``PULP_CBC_CMD`` is deprecated in PuLP 3.3). None when there is none.
    """
    env = os.environ.get("CKN_VERIFY_CBC")
    if env:
        return env
    found = shutil.which("cbc")
    if found:
        return found
    try:
        from pulp.apis import coin_api

        bundled = os.path.abspath(getattr(coin_api, "pulp_cbc_path", ""))
    except ImportError:
        return None
    if bundled and os.path.isfile(bundled):
        if not os.access(bundled, os.X_OK):
            try:
                os.chmod(bundled, os.stat(bundled).st_mode | 0o111)
            except OSError:
                return None
        return bundled
    return None


def _solver(time_limit: float | None, plain: bool = False):
    import pulp

    path = cbc_path()
    if path is None:
        raise RuntimeError("no CBC executable: pip install 'pulp[cbc]' or set CKN_VERIFY_CBC")
    return pulp.COIN_CMD(
        path=path,
        msg=False,
        gapRel=0,
        gapAbs=0,
        timeLimit=time_limit,
        threads=1,
        options=["integerTolerance 1e-9"],
        # ``plain``: no cut generators, no presolve -- the fallback when CBC's default answer
        # is contradicted by a feasible selection (CBC 2.10's cuts can cut off the optimum).
        **({"cuts": False, "presolve": False} if plain else {}),
    )


def _binaries(prob, n: int) -> list:
    """n binary variables; PuLP ≥ 3.3 creates them through the problem (its 4.0 API)."""
    import pulp

    if hasattr(prob, "add_variable"):
        return [prob.add_variable(f"x{i}", 0, 1, cat=pulp.LpBinary) for i in range(n)]
    return [pulp.LpVariable(f"x{i}", 0, 1, cat=pulp.LpBinary) for i in range(n)]


def _variable(prob, name: str, low, up, cat):
    """One variable, created through the problem where PuLP offers it (its 4.0 API)."""
    import pulp

    if hasattr(prob, "add_variable"):
        return prob.add_variable(name, low, up, cat=cat)
    return pulp.LpVariable(name, low, up, cat=cat)


def _result(prob, xs, inert) -> IlpResult:
    """CBC's answer; ``inert[i]``: item i has weight 0 and value 0.

    PuLP leaves a variable whose coefficients are all zero out of the model file, so CBC
    returns no value for it; only for such an (inert) item is that read as x_i = 0.
    """
    import pulp

    proven = prob.sol_status == pulp.LpSolutionOptimal
    status = f"{pulp.LpStatus[prob.status]}/{pulp.LpSolution[prob.sol_status]}"
    indices = []
    frac = 0.0
    for i, x in enumerate(xs):
        val = x.varValue
        if val is None and inert[i]:
            val = 0.0
        if val is None:
            return IlpResult((), False, status + "/no values", None, 1.0)
        frac = max(frac, abs(val - round(val)))
        if val > 0.5:
            indices.append(i)
    objective = pulp.value(prob.objective) if xs else 0.0
    return IlpResult(tuple(indices), proven, status, objective, frac)


def solve_ilp(weights, values, budget: int, *, time_limit: float | None = 300,
              plain: bool = False) -> IlpResult:
    """Maximise Σ values under Σ weights ≤ budget with CBC; see the module docstring.

    ``plain=True`` turns CBC's cut generators and presolve off (pure branch and bound on the
    LP relaxation), the fallback used when the default run is contradicted.
    """
    import pulp

    n = len(weights)
    if n == 0:
        # No variables: the empty selection is the only one (PuLP cannot write an empty model).
        return IlpResult((), True, "trivial/no items", 0.0, 0.0)
    prob = pulp.LpProblem("knapsack", pulp.LpMaximize)
    xs = _binaries(prob, n)
    prob += pulp.lpSum(int(v) * x for v, x in zip(values, xs)), "value"
    prob += pulp.lpSum(int(w) * x for w, x in zip(weights, xs)) <= int(budget), "budget"
    prob.solve(_solver(time_limit, plain))
    return _result(prob, xs, [w == 0 and v == 0 for w, v in zip(weights, values)])


def solve_min_weight(weights, values, budget: int, target: int, *,
                     time_limit: float | None = 300, plain: bool = False) -> IlpResult:
    """Minimise Σ weights subject to Σ values ≥ target and Σ weights ≤ budget.

    With ``target`` the optimum this finds the fewest tokens any optimal subset can have, the
    first tie rule of spec §8, at sizes where enumeration is out of reach.
    """
    import pulp

    n = len(weights)
    if n == 0:
        return IlpResult((), target <= 0, "trivial/no items", 0.0, 0.0)
    prob = pulp.LpProblem("fewest_tokens", pulp.LpMinimize)
    xs = _binaries(prob, n)
    prob += pulp.lpSum(int(w) * x for w, x in zip(weights, xs)), "tokens"
    prob += pulp.lpSum(int(v) * x for v, x in zip(values, xs)) >= int(target), "value"
    prob += pulp.lpSum(int(w) * x for w, x in zip(weights, xs)) <= int(budget), "budget"
    prob.solve(_solver(time_limit, plain))
    return _result(prob, xs, [w == 0 and v == 0 for w, v in zip(weights, values)])


# ----------------------------------------------------------------------------- huge weights

SPLIT = 2**21   # weights and budgets are written in LIMBS base-2**21 digits for the exact ILPs
LIMBS = 3       # (3 digits hold any int64)


def _digits(x: int) -> list[int]:
    return [(int(x) >> (21 * k)) & (SPLIT - 1) for k in range(LIMBS - 1)] + [
        int(x) >> (21 * (LIMBS - 1))]


def _exact_budget_rows(prob, xs, weights, budget: int) -> list:
    """Rows stating Σ w_i x_i ≤ budget exactly, every coefficient and sum far below 2**53.

    CBC computes in double, and integers as large as 2**63 are not exact there; a large
    coefficient also turns CBC's integrality tolerance into whole units. So the weights are
    written in base S = 2**21 (w_i = Σ_k d_ik S^k) and the sum is carried digit by digit, with
    integers y_k (the digits of the total W; 0 ≤ y_k < S below the top one) and carries c_k::

        Σ_i d_i0 x_i = y_0 + S·c_0,   Σ_i d_ik x_i + c_(k-1) = y_k + S·c_k,   top: ... = y_top

    W ≤ budget is then the lexicographic comparison of (y_top, ..., y_0) with the budget's
    digits (b_top, ..., b_0), stated with binaries t_k ("digits above k equal the budget's"):
    y_top ≤ b_top − 1 + t_top; y_k ≤ b_k − 1 + t_k + S·(1 − t_(k+1)); t_k ≤ t_(k+1);
    y_0 ≤ b_0 + S·(1 − t_1). Each inequality holds for some t exactly when W ≤ budget (the
    t's mark how long W's leading digits equal the budget's). Every left side is an integer,
    so the right sides carry 0.5 of slack: the same integer points, and CBC's tolerances
    (which otherwise have been seen to reject a row met with equality) cannot cut them off.
    Returns [y_top, ..., y_0].
    """
    import pulp

    n = len(weights)
    digits = [_digits(w) for w in weights]
    b = _digits(budget)
    top_bound = sum(d[LIMBS - 1] for d in digits) + n + 1   # the top digit's largest value
    y = [_variable(prob, f"y{k}", 0, top_bound if k == LIMBS - 1 else SPLIT - 1, pulp.LpInteger)
         for k in range(LIMBS)]
    c = [_variable(prob, f"c{k}", 0, n + 1, pulp.LpInteger) for k in range(LIMBS - 1)]
    t = [None] + [_variable(prob, f"t{k}", 0, 1, pulp.LpBinary) for k in range(1, LIMBS)]
    for k in range(LIMBS):
        row = pulp.lpSum(d[k] * x for d, x in zip(digits, xs)) + (c[k - 1] if k else 0)
        prob += row - y[k] - (SPLIT * c[k] if k < LIMBS - 1 else 0) == 0, f"digit{k}"
    top = LIMBS - 1
    prob += y[top] - t[top] <= b[top] - 0.5, f"budget{top}"
    for k in range(top - 1, 0, -1):
        prob += y[k] - t[k] + SPLIT * t[k + 1] <= b[k] - 0.5 + SPLIT, f"budget{k}"
        prob += t[k] - t[k + 1] <= 0, f"order{k}"
    prob += y[0] + SPLIT * t[1] <= b[0] + 0.5 + SPLIT, "budget0"
    return y[::-1]


def solve_ilp_wide(weights, values, budget: int, *, time_limit: float | None = 300,
                   plain: bool = False) -> IlpResult:
    """:func:`solve_ilp` for weights and budgets up to 2**63 - 1, exact (the budget row
    carried digit by digit, :func:`_exact_budget_rows`); values' sums must stay below 2**53."""
    import pulp

    n = len(weights)
    if n == 0:
        return IlpResult((), True, "trivial/no items", 0.0, 0.0)
    prob = pulp.LpProblem("knapsack_wide", pulp.LpMaximize)
    xs = _binaries(prob, n)
    prob += pulp.lpSum(int(v) * x for v, x in zip(values, xs)), "value"
    _exact_budget_rows(prob, xs, weights, budget)
    prob.solve(_solver(time_limit, plain))
    return _result(prob, xs, [w == 0 and v == 0 for w, v in zip(weights, values)])
