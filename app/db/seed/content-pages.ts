import { type Language } from '~/i18n/config'

/** The three content pages of spec §2, per language. HTML is sanitized again when rendered. */
export const demoContentPages: Record<string, Record<Language, { title: string; bodyHtml: string }>> = {
	'about-us': {
		et: {
			title: 'Meist',
			bodyHtml: `<p><strong>Autohub</strong> viib kokku autoomanikud ja usaldusväärsed autotöökojad üle Eesti. Kirjelda, mida su auto vajab, ning töökojad saadavad sulle oma pakkumised: hinna, tähtaja ja garantiitingimused ühes kohas.</p>
<h2>Kuidas see töötab</h2>
<ol><li>Lisa oma sõiduk ja kirjelda vajalikku teenust.</li><li>Võrdle töökodade pakkumisi, hinnanguid ja garantiisid.</li><li>Vali sobiv pakkumine ja jälgi töö kulgu.</li><li>Jäta tagasiside, mis aitab teisi autoomanikke.</li></ol>
<h2>Töökodadele</h2>
<p>Töökojad saavad uusi kliente ilma reklaamikuludeta: avalik profiil, päringud sinu teenustele ja mugav pakkumiste haldus. Alusta tasuta paketiga.</p>`,
		},
		en: {
			title: 'About us',
			bodyHtml: `<p><strong>Autohub</strong> brings car owners and trusted workshops together all over Estonia. Describe what your car needs and workshops send you their offers: price, timing and warranty terms in one place.</p>
<h2>How it works</h2>
<ol><li>Add your vehicle and describe the service you need.</li><li>Compare the workshops' offers, ratings and warranties.</li><li>Choose an offer and follow the work as it progresses.</li><li>Leave a review that helps other car owners.</li></ol>
<h2>For workshops</h2>
<p>Workshops win new customers without advertising costs: a public profile, requests that match your services and simple offer management. Start with the free package.</p>`,
		},
		ru: {
			title: 'О нас',
			bodyHtml: `<p><strong>Autohub</strong> соединяет владельцев автомобилей и надёжные автосервисы по всей Эстонии. Опишите, что нужно вашему автомобилю, и автосервисы пришлют свои предложения: цена, сроки и гарантия в одном месте.</p>
<h2>Как это работает</h2>
<ol><li>Добавьте автомобиль и опишите нужную услугу.</li><li>Сравните предложения, рейтинги и гарантии автосервисов.</li><li>Выберите предложение и следите за ходом работ.</li><li>Оставьте отзыв, который поможет другим автовладельцам.</li></ol>
<h2>Для автосервисов</h2>
<p>Автосервисы получают новых клиентов без затрат на рекламу: публичный профиль, заявки по вашим услугам и удобное управление предложениями. Начните с бесплатного пакета.</p>`,
		},
	},
	'terms-and-conditions': {
		et: {
			title: 'Kasutustingimused',
			bodyHtml: `<p>Need tingimused kehtivad Autohubi portaali kasutamisel. Portaali kasutades nõustud tingimustega.</p>
<h2>1. Teenuse olemus</h2><p>Autohub on vahendusplatvorm. Teenuse lepingu sõlmivad omavahel klient ja töökoda; Autohub ei ole lepingu pool ega vastuta tehtud töö eest.</p>
<h2>2. Konto</h2><p>Kasutaja vastutab oma andmete õigsuse ja parooli hoidmise eest. Tingimusi rikkuva konto võib administraator blokeerida.</p>
<h2>3. Pakkumised ja tagasiside</h2><p>Töökoda vastutab oma pakkumise sisu eest. Tagasiside peab põhinema tegelikul kogemusel ning olema viisakas.</p>
<h2>4. Tasulised paketid</h2><p>Tasulist paketti arveldatakse kord kuus ette. Paketi saab igal ajal lõpetada; see kehtib makstud perioodi lõpuni.</p>`,
		},
		en: {
			title: 'Terms and conditions',
			bodyHtml: `<p>These terms apply to the use of the Autohub portal. By using the portal you accept them.</p>
<h2>1. The service</h2><p>Autohub is a marketplace. The service contract is made between the customer and the workshop; Autohub is not a party to it and is not liable for the work done.</p>
<h2>2. Your account</h2><p>Users are responsible for the accuracy of their data and for keeping their password safe. The administrator may block an account that breaks these terms.</p>
<h2>3. Offers and reviews</h2><p>Workshops are responsible for the content of their offers. Reviews must reflect a real experience and stay polite.</p>
<h2>4. Paid packages</h2><p>Paid packages are billed monthly in advance. A package can be cancelled at any time and stays active until the end of the paid period.</p>`,
		},
		ru: {
			title: 'Условия использования',
			bodyHtml: `<p>Эти условия действуют при использовании портала Autohub. Пользуясь порталом, вы принимаете условия.</p>
<h2>1. Суть услуги</h2><p>Autohub — площадка-посредник. Договор на услугу заключают клиент и автосервис; Autohub не является стороной договора и не отвечает за выполненную работу.</p>
<h2>2. Учётная запись</h2><p>Пользователь отвечает за правильность своих данных и сохранность пароля. Администратор может заблокировать учётную запись, нарушающую условия.</p>
<h2>3. Предложения и отзывы</h2><p>Автосервис отвечает за содержание своего предложения. Отзывы должны основываться на реальном опыте и быть вежливыми.</p>
<h2>4. Платные пакеты</h2><p>Платный пакет оплачивается ежемесячно вперёд. Пакет можно отменить в любое время; он действует до конца оплаченного периода.</p>`,
		},
	},
	'privacy-policy': {
		et: {
			title: 'Privaatsuspoliitika',
			bodyHtml: `<p>Hoiame sinu andmeid hoolikalt ja kasutame neid ainult teenuse osutamiseks.</p>
<h2>Milliseid andmeid kogume</h2><ul><li>Konto andmed: nimi, e-post, telefon.</li><li>Pääsuvõtmed, kui need lisad: nende nimi, lisamise ja viimase kasutamise aeg ning avalik võti (sõrmejälg või nägu jääb sinu seadmesse).</li><li>Sõidukite ja teenusepäringute andmed.</li><li>Töökodade profiiliandmed ja arveldusandmed.</li></ul>
<h2>Kellele andmeid näitame</h2><p>Teenusepäringut näevad töökojad, kes pakuvad vastavat teenust. Sinu kontaktandmeid näeb töökoda alles siis, kui oled tema pakkumise valinud.</p>
<h2>Sisselogimine e-identiteediga</h2><p>Kui logid sisse Smart-ID, Mobiil-ID või ID-kaardiga, saame e-identiteedi teenusest (RIA TARA) sinu ees- ja perekonnanime ning isikukoodi. Isikukoodi me ei hoia: hoiame sellest ja riigi koodist salajase võtmega tehtud räsi, mille järgi sind järgmisel korral ära tunneme, ning kuupäeva, millal e-identiteedi sidusid. Sinu nimi tuleb siis e-identiteedist ja teised näevad selle juures märki „Kinnitatud isik“. E-identiteedi saad seadetes eemaldada, kui sinu kontol on parool; konto kustutamisel kustub ka see.</p>
<h2>Kui kaua andmeid hoiame</h2><ul><li>Loetud teavitused: 12 kuud pärast lugemist.</li><li>Vestlused: 24 kuud pärast seda, kui sul ja vestluskaaslasel pole enam ühtegi pooleliolevat ühist päringut.</li><li>Kontaktivormi sõnumid: 24 kuud.</li><li>Sisselogimiste andmed: 12 kuud pärast seansi lõppu; iga sisselogimise viis (parool, e-identiteet või pääsuvõti) ja sisselogimise kinnitamine teise viisiga (administraatorilt nõutav): 12 kuud.</li><li>Saadetud e-kirjad: 90 päeva pärast saatmist.</li><li>Arved ja maksed: 7 aastat, nagu nõuab raamatupidamise seadus.</li><li>Partneri saidil küsitud pakkumise päring, mida sa pole e-kirja lingiga kinnitanud: 7 päeva pärast lingi aegumist (link kehtib 24 tundi).</li></ul><p>Vanemad andmed kustutatakse automaatselt iga päev.</p>
<h2>Küpsised</h2><p>Kasutame ainult hädavajalikke küpsiseid: <code>__session</code> (sisselogimine ja teated), <code>csrf</code> (vormide kaitse), <code>lng</code> (valitud keel) ja <code>__eid</code> (e-identiteediga sisselogimise kontroll, 15 minutit). Reklaami- ega jälgimisküpsiseid ei ole.</p>
<h2>Sinu õigused</h2><p>Võid igal ajal küsida oma andmete väljavõtet või nende kustutamist, kirjutades meile kontaktivormi kaudu.</p>`,
		},
		en: {
			title: 'Privacy policy',
			bodyHtml: `<p>We look after your data carefully and use it only to provide the service.</p>
<h2>What we collect</h2><ul><li>Account data: name, e-mail, phone.</li><li>Passkeys, if you add them: their names, when each was added and last used, and their public keys (your fingerprint or face never leaves your device).</li><li>Your vehicles and service requests.</li><li>Workshop profiles and billing details.</li></ul>
<h2>Who sees it</h2><p>A service request is shown to workshops that offer the service. A workshop sees your contact details only after you have selected its offer.</p>
<h2>Logging in with eID</h2><p>When you log in with Smart-ID, Mobile-ID or ID-card, the eID service (RIA's TARA) tells us your first and last name and your personal code. We do not keep the code: we keep a hash of it and its country, made with a secret key, by which we know you next time, and the date you linked it. Your name then comes from the eID, and others see a “Verified person” mark beside it. You can unlink the eID in the settings while your account has a password; deleting the account removes it too.</p>
<h2>How long we keep it</h2><ul><li>Notifications you have read: 12 months after you read them.</li><li>Chats: 24 months after no request you share is under way any more.</li><li>Messages sent through the contact form: 24 months.</li><li>Log-in records: 12 months after the session ended; how you logged in each time (password, eID or passkey) and each confirmation of a log-in with a second way (which administrators need): 12 months.</li><li>E-mails we sent you: 90 days after sending.</li><li>Invoices and payments: 7 years, as the Accounting Act requires.</li><li>A request for an offer made on a partner’s site that you have not confirmed with the e-mailed link: 7 days after the link ended (it works for 24 hours).</li></ul><p>Older data is deleted automatically every day.</p>
<h2>Cookies</h2><p>We use only necessary cookies: <code>__session</code> (signing in and messages), <code>csrf</code> (protecting forms), <code>lng</code> (the language you chose) and <code>__eid</code> (checking a log-in with eID, 15 minutes). There are no advertising or tracking cookies.</p>
<h2>Your rights</h2><p>You can ask for a copy of your data or for its deletion at any time through the contact form.</p>`,
		},
		ru: {
			title: 'Политика конфиденциальности',
			bodyHtml: `<p>Мы бережно храним ваши данные и используем их только для оказания услуги.</p>
<h2>Какие данные мы собираем</h2><ul><li>Данные учётной записи: имя, e-mail, телефон.</li><li>Ключи доступа, если вы их добавите: их названия, время добавления и последнего использования и открытые ключи (отпечаток пальца или лицо не покидают ваше устройство).</li><li>Данные автомобилей и заявок на услуги.</li><li>Профили автосервисов и платёжные данные.</li></ul>
<h2>Кому мы их показываем</h2><p>Заявку видят автосервисы, оказывающие нужную услугу. Контакты клиента автосервис видит только после того, как клиент выбрал его предложение.</p>
<h2>Вход с eID</h2><p>Когда вы входите через Smart-ID, Mobiil-ID или ID-карту, служба eID (TARA Департамента государственных информационных систем) сообщает нам ваши имя, фамилию и личный код. Личный код мы не храним: мы храним сделанный секретным ключом хеш кода и страны, по которому узнаём вас в следующий раз, и дату привязки eID. Ваше имя тогда берётся из eID, и другие видят рядом с ним отметку «Подтверждённое лицо». Отвязать eID можно в настройках, пока у учётной записи есть пароль; при удалении учётной записи он удаляется тоже.</p>
<h2>Как долго мы храним данные</h2><ul><li>Прочитанные уведомления: 12 месяцев после прочтения.</li><li>Переписка: 24 месяца после того, как у вас не осталось общих заявок в работе.</li><li>Сообщения из формы обратной связи: 24 месяца.</li><li>Записи о входах: 12 месяцев после окончания сеанса; способ каждого входа (пароль, eID или ключ доступа) и каждое подтверждение входа вторым способом (оно нужно администраторам): 12 месяцев.</li><li>Отправленные письма: 90 дней после отправки.</li><li>Счета и платежи: 7 лет, как требует закон о бухгалтерском учёте.</li><li>Запрос предложения с сайта партнёра, который вы не подтвердили ссылкой из письма: 7 дней после окончания срока ссылки (она действует 24 часа).</li></ul><p>Более старые данные удаляются автоматически каждый день.</p>
<h2>Файлы cookie</h2><p>Мы используем только необходимые cookie: <code>__session</code> (вход и сообщения), <code>csrf</code> (защита форм), <code>lng</code> (выбранный язык) и <code>__eid</code> (проверка входа с eID, 15 минут). Рекламных и отслеживающих cookie нет.</p>
<h2>Ваши права</h2><p>Вы можете в любое время запросить копию своих данных или их удаление через форму обратной связи.</p>`,
		},
	},
}
