"""The sanitizer's multilingual concept lexicon (written for ckn, no third-party rows).

Each concept names one idea that carries a directive towards a model, or its opposite (third-person
discussion of attacks), in about twenty languages: en de fr es pt it pl ru el hi bn ar vi id tl tr
ja zh ko th. Entries are separated by ``|``; an entry is a word stem matched at a word start (or
right after another entry, so glued text like ``ignoreallpreviousinstructions`` still hits); a
trailing ``$`` asks for a whole word. Entries pass through the detector's own fold (NFKC, casefold,
confusables, leet) when the weights file is written, so they are spelled naturally here.
"""

CONCEPTS: dict[str, str] = {
    "ignore": "ignor|disregard|forget|forgot|overlook|neglect|bypass|override|overrid|discard|skip|set aside|"
              "pay no attention|nevermind|never mind|abandon|vergiss|vergessen|missacht|übergeh|außer acht|"
              "oubli|néglig|fais abstraction|olvid|omit|caso omiso|desestim|descart|esqueç|esquec|desconsider|"
              "desprez|dimentic|trascur|non considerare|игнорир|проигнорир|забуд|забыть|пренебр|не обращай|"
              "zignoruj|ignoruj|zapomnij|pomiń|αγνόησ|ξέχασ|अनदेखा|नज़रअंदाज़|नजरअंदाज|उपेक्षा|भूल जा|भूल जाएं|"
              "अवहेलना|উপেক্ষা|ভুলে যা|অগ্রাহ্য|উপেক্ষ|تجاهل|انس$|إنس$|اهمل|أهمل|bỏ qua|quên|phớt lờ|lờ đi|"
              "abaikan|lupakan|acuhkan|pansinin|kalimutan|balewalain|ipagwalang-bahala|yoksay|görmezden|unut|"
              "dikkate alma|無視|忘れ|忽略|忘记|忘記|无视|忽视|不要理会|忘掉|무시|잊어|잊으|잊고|เพิกเฉย|ลืม|ไม่สนใจ|ละเว้น|ละเลย",
    "previous": "previous|prior|above|preceding|earlier|before|foregoing|initial|original|aforementioned|so far|"
                "up to now|until now|vorherig|vorige|obig|früher|bisherig|vorangegangen|zuvor|davor|ursprünglich|"
                "précédent|antérieur|ci-dessus|avant|initiale|anterior|previa|previo|precedente|arriba|antes|"
                "prévia|acima|precedent|sopra|prima$|предыдущ|прежн|выше|ранее|до этого|предшеств|изначальн|"
                "исходн|poprzedni|wcześniejsz|powyższ|προηγούμεν|पिछल|पूर्व|पहले|ऊपर|उपरोक्त|পূর্ববর্তী|আগের|"
                "পূর্বের|উপরের|আগে|السابق|سابق|أعلاه|الأصلي|قبل|trước|ở trên|ban đầu|sebelumnya|di atas|sebelum|"
                "nakaraan|nauna|sa itaas|dati|orihinal|önceki|yukarıdaki|evvelki|daha önce|orijinal|以前|前の|上記|"
                "これまで|先の|元の|最初の|之前|先前|上面|上述|原来|原始|此前|이전|앞의|위의|기존|원래|앞서|ก่อนหน้า|"
                "ข้างต้น|ก่อน|เดิม",
    "instructions": "instruct|prompt|directive|guideline|rules|orders|commands|guidance|anweisung|anleitung|vorgabe|"
                    "befehl|regeln|richtlinie|instruktion|consigne|règle|instrucci|indicacion|directriz|órdenes|"
                    "reglas|instruç|instruc|orientaç|regras|diretriz|istruzion|direttiv|regole|инструкци|указани|"
                    "правил|директив|команд|промпт|instrukcj|polecen|zasad|οδηγί|εντολ|निर्देश|आदेश|नियम|प्रॉम्प्ट|"
                    "নির্দেশ|আদেশ|নিয়ম|تعليمات|التعليمات|الإرشادات|أوامر|الأوامر|القواعد|hướng dẫn|chỉ dẫn|"
                    "chỉ thị|lệnh|quy tắc|instruksi|perintah|petunjuk|aturan|arahan|tagubilin|utos|panuto|"
                    "instruksyon|patakaran|talimat|yönerge|komut|kural|direktif|指示|命令|指令|ルール|プロンプト|"
                    "規則|说明|规则|提示|지시|명령|지침|규칙|프롬프트|คำสั่ง|คำแนะนำ|กฎ",
    "all": "all$|any$|every|everything|entire|whole|alle|alles|sämtlich|jegliche|tout|toute|tous|todo|toda|"
           "cualquier|qualquer|tutt|qualsiasi|все$|всё|всех|любы|wszystk|όλ|सभी|सारे|सब$|किसी भी|সব|সমস্ত|جميع|"
           "كل$|tất cả|mọi|semua|segala|seluruh|lahat|tüm|bütün|her şey|すべて|全て|全部|所有|一切|모든|전부|ทั้งหมด|ทุก",
    "reveal": "reveal|print|show|display|output|repeat|tell|say$|write|list$|share|disclose|leak|spell|recite|"
              "zeig|gib$|ausgeb|druck|wiederhol|sag$|sage$|schreib|verrat|nenne|affiche|révèle|montre|imprime|"
              "répète|dis$|dis-moi|écri|donne|partage|muestra|revela|imprim|repit|dime|escrib|comparte|dame|"
              "mostr|revele|repita|diga|escreva|compartilh|rivela|stampa|ripeti|dimmi|scrivi|condividi|покажи|"
              "выведи|раскрой|напечатай|повтори|скажи|напиши|сообщи|назови|поделись|pokaż|wyświetl|wypisz|"
              "powtórz|powiedz|napisz|ujawnij|δείξε|πες|γράψε|बताओ|बताएं|बताइए|बताएँ|दिखाओ|दिखाएं|प्रकट|लिखो|"
              "लिखें|दोहराएं|साझा|বলুন|বলো|দেখান|দেখাও|প্রকাশ|লিখুন|লেখ|শেয়ার|اكشف|اطبع|أظهر|اعرض|كرر|قل$|"
              "اكتب|أخبرني|شارك|tiết lộ|in ra|hiển thị|cho tôi biết|nói|viết|lặp lại|chia sẻ|tampilkan|"
              "ungkapkan|cetak|ulangi|katakan|tulis|beri tahu|bagikan|sebutkan|ipakita|ibunyag|sabihin|isulat|"
              "ulitin|ibahagi|göster|açıkla|yazdır|tekrarla|söyle|yaz$|paylaş|表示|教え|出力|繰り返|言って|書いて|"
              "明かし|共有|显示|告诉|输出|打印|重复|说出|透露|写出|分享|泄露|보여|알려|출력|반복|말해|써$|공개|공유|"
              "แสดง|บอก|พิมพ์|เปิดเผย|เขียน|ทำซ้ำ|แบ่งปัน",
    "system": "system|developer|admin|administrator|root$|sudo|operator|systèm|sistema|систем|system|σύστημα|"
              "सिस्टम|সিস্টেম|النظام|hệ thống|sistem|システム|系统|系統|시스템|ระบบ|entwickler|développeur|"
              "desarrollador|desenvolvedor|sviluppatore|разработчик|deweloper|डेवलपर|ডেভেলপার|المطور|"
              "nhà phát triển|pengembang|geliştirici|開発者|开发者|개발자|นักพัฒนา|админ|管理员|管理者|관리자|"
              "एडमिन|অ্যাডমিন|المسؤول|quản trị|yönetici",
    "you": "you$|your|yours$|yourself|du$|dich$|dein|dir$|sie$|ihr$|ihre|ihnen|tu$|toi$|vous$|votre|vos$|ton$|"
           "tes$|tú$|usted|te$|tus$|ti$|você|voce|vocês|seu$|sua$|tuo$|tua$|tuoi|ты$|вы$|тебе|тебя|вас$|вам$|"
           "ваш|твой|твои|ty$|twój|twoj|twoje|ciebie|σου$|εσύ|आप|तुम|তুমি|আপনি|আপনার|আপনাকে|তোমার|তোমাকে|"
           "أنت|انت|لك$|الخاص بك|bạn|anda|kamu|ikaw|mo$|iyong|ka$|sen$|senin|siz$|sizin|sana|size$|あなた|君|"
           "お前|你|您|당신|너$|네가|คุณ|เธอ",
    "must": "must|always|never|only$|should|do not|don't|dont|mustn't|muss|musst|immer|niemals|nur$|nie$|doit|"
            "dois|toujours|jamais|seulement|uniquement|debe|debes|siempre|nunca|solo$|sólo|únicamente|deve|"
            "sempre|apenas|somente|devi|mai$|soltanto|должен|должна|всегда|никогда|только|musisz|zawsze|nigdy|"
            "tylko|πρέπει|πάντα|ποτέ|हमेशा|कभी नहीं|केवल|सिर्फ|चाहिए|সবসময়|কখনও|শুধুমাত্র|কেবল|অবশ্যই|يجب|"
            "دائما|أبدا|فقط|phải|luôn|không bao giờ|chỉ$|harus|selalu|jangan|hanya|dapat$|palagi|huwag|lamang|"
            "lang$|zorunda|her zaman|asla|sadece|yalnızca|必ず|常に|決して|だけ|しなければ|必须|总是|永远|只$|仅|"
            "반드시|항상|절대|ต้อง|เสมอ|ห้าม|เท่านั้น",
    "now": "now$|from now|henceforth|instead|new$|from here on|starting now|jetzt|ab sofort|stattdessen|neue|nun$|"
           "maintenant|désormais|dorénavant|à la place|nouveau|nouvelle|ahora|en su lugar|en cambio|nuevo|nueva|"
           "agora|em vez disso|novo$|nova$|adesso|d'ora in poi|invece|nuovo|nuova|теперь|сейчас|отныне|вместо|"
           "нов|teraz|zamiast|nowe|τώρα|αντί|अब$|अब से|इसके बजाय|नया|नई|नए|এখন|পরিবর্তে|নতুন|الآن|بدلا|"
           "بدلاً|جديد|bây giờ|thay vào đó|mới$|sekarang|sebagai gantinya|baru$|ngayon|sa halip|bago$|şimdi|"
           "bundan sonra|yerine|yeni|今から|これから|今後|代わりに|新しい|现在|從現在|从现在|改为|而是|新的|이제|"
           "지금부터|대신|새로운|ตอนนี้|จากนี้|แทน|ใหม่",
    "respond": "respon|reply|answer|output|antwort|ausgabe|erwider|répon|sortie|respuesta|responde|contesta|"
               "salida|resposta|responda|saída|rispost|rispondi|ответ|отвечай|odpowied|απάντ|उत्तर|जवाब|"
               "প্রতিক্রিয়া|উত্তর|জবাব|الرد|إجابة|اجابة|أجب|جواب|trả lời|phản hồi|jawab|tanggapan|respons|balas|"
               "sagot|tugon|sumagot|yanıt|cevap|回答|答え|返答|応答|返信|回复|答复|响应|답변|대답|응답|ตอบ",
    "secret": "password|passcode|passphrase|secret|key$|token|credential|api key|pin$|passwort|kennwort|geheim|"
              "schlüssel|zugangsdaten|mot de passe|clé|clef|contraseña|secreto|clave|senha|segredo|chave|segret|"
              "chiave|парол|секрет|ключ|hasło|hasl|sekret|klucz|κωδικ|μυστικ|पासवर्ड|गुप्त|कुंजी|पासकोड|"
              "পাসওয়ার্ড|গোপন|চাবি|كلمة المرور|كلمة السر|سري|السري|مفتاح|المفتاح|mật khẩu|bí mật|khóa|"
              "kata sandi|rahasia|kunci|lihim|susi|şifre|parola|gizli|anahtar|パスワード|秘密|鍵|キー|密码|密碼|"
              "密钥|钥匙|비밀번호|암호|비밀|รหัสผ่าน|ความลับ|กุญแจ",
    "link": "http|www|link|url$|image|website|markdown|enlace|lien$|ссылк|लिंक|লিংক|رابط|liên kết|tautan|"
            "bağlantı|リンク|链接|連結|링크|ลิงก์|bild$|imagen|imagem|immagine|изображен|छवि|ছবি|صورة|hình ảnh|"
            "gambar|larawan|resim|画像|图片|이미지|รูปภาพ|sitio web|site web",
    "tool": "execute|exec$|run$|call$|function|tool|script|eval$|shell|terminal|bash|sql|database|os.system|"
            "ausführ|exécute|ejecuta|executa|esegui|выполни|запусти|निष्पादित|চালান|نفذ|thực thi|jalankan|"
            "patakbuhin|çalıştır|実行|执行|실행|รัน|datenbank|base de données|base de datos|banco de dados|"
            "база данных|डेटाबेस|قاعدة البيانات|cơ sở dữ liệu|データベース|数据库|데이터베이스|ฐานข้อมูล",
    "persona": "act as|acting as|pretend|roleplay|role-play|role play|play the role|character|persona|dan$|"
               "jailbr|developer mode|simulat|imagine you|you are now|you're now|tu so als|spiel|rolle|"
               "fais semblant|joue le rôle|agis comme|rôle|actúa como|finge|haz de cuenta|papel|rol$|aja como|"
               "finja|fingi|agisci come|ruolo|притворись|представь|сыграй|роль|веди себя как|udawaj|"
               "होने का नाटक|भूमिका|की तरह व्यवहार|ভান|ভূমিকা|تظاهر|دور$|تصرف|giả vờ|đóng vai|vai trò|"
               "hành động như|berpura-pura|berperan|peran|bertindak sebagai|magpanggap|gumanap|gibi davran|"
               "rolü|rol yap|taklit|ふりをして|役割|演じ|ロールプレイ|なりきっ|假装|扮演|角色|充当|척해|척하|역할|"
               "연기해|แกล้งทำ|สวมบทบาท|บทบาท",
    "unrestricted": "restrict|unrestricted|unfilter|uncensor|without limit|no limit|no rules|anything now|"
                    "not bound|free from|ethic|moral|policy|polic|filter|censor|guardrail|safety|limitation|"
                    "einschränk|uneingeschränkt|zensur|sans restriction|restriction|censure|sin restricci|"
                    "restricci|censura|sem restriç|restriç|senza restrizion|restrizion|ограничен|цензур|"
                    "ograniczeń|περιορισμ|प्रतिबंध|सेंसर|সীমাবদ্ধতা|নিষেধাজ্ঞা|قيود|رقابة|hạn chế|kiểm duyệt|"
                    "batasan|sensor|limitasyon|kısıtlama|sansür|制限|検閲|限制|审查|제한|검열|ข้อจำกัด|เซ็นเซอร์",
    "add": "include|add$|insert|append|mention|incorporate|embed|attach|füge|hinzu|einfüg|erwähn|einbau|ajoute|"
           "inclu|insère|mentionne|añade|agrega|incluy|inserta|menciona|adicione|inclua|insira|mencione|"
           "aggiungi|includi|inserisci|menziona|добавь|включи|вставь|упомяни|dodaj|wstaw|πρόσθεσε|जोड़ें|"
           "शामिल कर|যোগ কর|অন্তর্ভুক্ত|أضف|اضف|أدرج|thêm|chèn|bao gồm|đề cập|tambahkan|sertakan|masukkan|"
           "idagdag|isama|ilagay|banggitin|ekle|dahil et|追加|含め|挿入|加え|添加|加入|包含|插入|加上|추가|포함|"
           "삽입|넣어|เพิ่ม|ใส่|แทรก",
    "code": "code|snippet|excerpt|block|implementation|program|codeausschnitt|extrait|código|fragmento|trecho|"
            "codice|код$|кода|фрагмент|kod$|kodu|κώδικ|कोड|কোড|كود|الكود|mã nguồn|đoạn mã|kode|コード|代码|"
            "程式碼|코드|โค้ด",
    "following": "following|below|these|the next|as follows|folgend|unten|suivant|ci-dessous|siguiente|"
                 "a continuación|abajo|seguinte|abaixo|seguente|sotto|следующ|ниже|następując|poniż|"
                 "ακόλουθ|निम्नलिखित|नीचे|নিম্নলিখিত|নিচের|التالي|أدناه|sau đây|dưới đây|berikut|sumusunod|"
                 "aşağıdaki|şu$|以下|次の|下面|如下|다음|아래|ต่อไปนี้|ด้านล่าง",
    "speaker": "i$|me$|my$|myself|i'm|ich$|mir$|mich$|mein|je$|j'|moi$|mon$|yo$|mi$|eu$|mim$|meu$|minha|io$|"
               "я$|мне|меня|мой|моя|mój|mnie|εγώ|μου$|मैं|मुझे|मेरा|मेरे|আমি|আমাকে|আমার|أنا|انا|tôi|saya|"
               "aku|ako$|ko$|akin|ben$|bana|benim|私|我|나$|저$|제가|ฉัน|ผม",
    "user": "user|benutzer|nutzer|utilisateur|usuario|usuário|utente|пользовател|użytkown|χρήστ|उपयोगकर्ता|"
            "ব্যবহারকারী|المستخدم|người dùng|pengguna|gumagamit|kullanıcı|ユーザー|用户|用戶|사용자|ผู้ใช้",
    "model": "ai$|assistant|chatbot|chatgpt|gpt|llm|model|bot$|openai|ki$|ia$|ии$|एआई|الذكاء الاصطناعي|"
             "trí tuệ nhân tạo|人工智能|人工知能|アシスタント|助手|모델|어시스턴트|챗봇|โมเดล|ผู้ช่วย|模型|モデル|"
             "модел|mô hình|asisten|modelo|modèle|modell|μοντέλ|मॉडल|মডেল|نموذج",
    "attacker": "attacker|adversar|malicious|hacker|threat actor|attack|exploit|vulnerab|risk|mitigat|scenario|"
                "example|e.g.|such as|angreifer|angriff|bösartig|schwachstelle|risiko|beispiel|szenario|"
                "attaquant|attaque|malveillant|vulnérabilit|risque|exemple|scénario|atacante|ataque|malicios|"
                "vulnerabilidad|riesgo|ejemplo|escenario|vulnerabilidade|risco|exemplo|cenário|attaccante|"
                "attacco|dannoso|rischio|esempio|злоумышленник|атак|вредонос|уязвим|риск|пример|сценари|"
                "atakując|złośliw|podatno|ryzyk|przykład|επιτιθέμεν|επίθεσ|κακόβουλ|ευπάθει|κίνδυν|παράδειγμα|"
                "σενάρι|हमलावर|हमला|दुर्भावनापूर्ण|भेद्यता|जोखिम|उदाहरण|परिदृश्य|আক্রমণকারী|আক্রমণ|দূষিত|ঝুঁকি|"
                "উদাহরণ|المهاجم|مهاجم|هجوم|خبيث|ضار|ثغرة|مخاطر|مثال|سيناريو|kẻ tấn công|tấn công|độc hại|"
                "lỗ hổng|rủi ro|ví dụ|kịch bản|penyerang|serangan|berbahaya|kerentanan|risiko|contoh|skenario|"
                "umaatake|pag-atake|halimbawa|saldırgan|saldırı|kötü amaçlı|güvenlik açığı|örnek|senaryo|"
                "攻撃者|攻撃|悪意|脆弱性|リスク|例えば|シナリオ|攻击者|攻击|恶意|漏洞|风险|例如|场景|攻擊者|攻擊|惡意|"
                "風險|情境|공격자|공격|악의적|취약점|위험|예를|시나리오|ผู้โจมตี|การโจมตี|ช่องโหว่|ความเสี่ยง|ตัวอย่าง",
    "modal": "may$|might|could|can be|can lead|allows|enables|is used|are used|which$|kann|können|könnte|peut|"
             "peuvent|pourrait|puede|pueden|podría|pode$|podem|poderia|può|possono|potrebbe|может|могут|może|"
             "mogą|μπορεί|सकता|सकती|सकते|পারে|يمكن|قد$|có thể|bisa|maaari|可能|可以|能够|できる|수 있|อาจ|สามารถ",
    "question": "what$|how$|who$|where|when$|why$|which|was$|wie$|wer$|wo$|warum|quel|comment|qui$|où$|pourquoi|"
                "qué|cómo|quién|dónde|por qué|o que|como$|quem|onde|cosa|come$|chi$|dove|perché|что|как$|кто|"
                "где|почему|co$|jak$|gdzie|dlaczego|τι$|πώς|क्या|कैसे|कौन|কী|কি$|কিভাবে|ماذا|كيف|gì|như thế nào|"
                "apa$|bagaimana|siapa|ano$|paano|sino$|nasıl|kim$|ne$|何|どう|什么|怎么|如何|谁|무엇|어떻게|누구|อะไร|อย่างไร",
    "stop": "stop|halt$|cease|terminate|end of|hör auf|beende|arrête|detente|deja de|termina|pare$|fermati|"
            "стоп|прекрати|останов|przestań|σταμάτα|रुको|बंद करो|থামুন|توقف|dừng|berhenti|hentikan|tumigil|"
            "ihinto|durdur|停止|止め|终止|중지|멈춰|หยุด",
    "please": "please|kindly|bitte|s'il vous plaît|s'il te plaît|por favor|per favore|пожалуйста|proszę|"
              "παρακαλώ|कृपया|অনুগ্রহ|দয়া করে|من فضلك|vui lòng|hãy|tolong|silakan|pakiusap|paki|lütfen|"
              "ください|请|請|주세요|제발|กรุณา|โปรด",
    "obey": "follow|obey|comply|adhere|befolge|gehorche|obéis|respecte|sigue|obedece|cumple|siga|obedeça|"
            "segui|obbedisci|следуй|подчиняйся|выполняй|słuchaj|पालन|মেনে|اتبع|أطع|tuân theo|làm theo|ikuti|"
            "patuhi|sundin|sumunod|uy$|itaat|従って|従え|遵循|遵守|服从|听从|따르|복종|ทำตาม|ปฏิบัติตาม",
    "context": "conversation|chat$|message|context|text$|document|email|article|input|gespräch|nachricht|"
               "kontext|dokument|texte|conversación|mensaje|contexto|documento|conversa|mensagem|messaggio|"
               "разговор|сообщени|контекст|документ|текст|wiadomo|बातचीत|संदेश|संदर्भ|কথোপকথন|বার্তা|"
               "المحادثة|رسالة|السياق|cuộc trò chuyện|tin nhắn|văn bản|percakapan|pesan|teks|usapan|mensahe|"
               "konuşma|mesaj|metin|会話|メッセージ|文脈|テキスト|对话|消息|上下文|文本|대화|메시지|문맥|텍스트|"
               "บทสนทนา|ข้อความ",
    "hidden": "secretly|without telling|do not mention|don't mention|do not reveal|don't reveal|hidden|covert|"
              "heimlich|secrètement|en secreto|secretamente|segretamente|тайно|втайне|गुप्त रूप से|গোপনে|سرا|"
              "bí mật|diam-diam|palihim|gizlice|こっそり|秘密裏|秘密地|偷偷|몰래|แอบ",
    "important": "important|attention|urgent|note to|notice|warning|wichtig|achtung|importante|atención|"
                 "attenzione|важно|внимание|ważne|σημαντικ|महत्वपूर्ण|ध्यान|গুরুত্বপূর্ণ|مهم|quan trọng|chú ý|"
                 "penting|perhatian|mahalaga|önemli|dikkat|重要|注意|중요|주의|สำคัญ",
}
