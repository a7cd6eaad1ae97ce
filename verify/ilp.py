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

__all__ = ["IlpResult", "cbc_path", "solve_ilp", "solve_min_weight"]


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
    first tie rule of SPEC §8, at sizes where enumeration is out of reach.
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
