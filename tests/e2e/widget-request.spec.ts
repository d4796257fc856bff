import http from 'node:http'
import { type Browser, type Page } from '@playwright/test'
import sharp from 'sharp'
import { dictionary, expect, javaScriptModes, open, test, uniqueEmail, waitForEmail } from './fixtures'
import { seriousAxeViolations } from './axe'

/**
 * The "ask for an offer" widget (issue 37, decision 0153) on a partner's page served from another
 * origin (the portal's port + 2), under a strict Content-Security-Policy and a hostile stylesheet:
 * the visitor asks for an offer, the e-mailed link is opened and the button pressed, and the
 * request is there in the portal, signed in as the new guest. In Estonian, English and Russian; the
 * link's page with JavaScript on and off; on a 360 px phone and a desktop; checked by axe.
 */
const portalPort = Number(process.env.E2E_PORT ?? '3210')
const portal = `http://127.0.0.1:${portalPort}`
const partnerPort = portalPort + 2
const partner = `http://127.0.0.1:${partnerPort}`
type Language = 'et' | 'en' | 'ru'

// What a careless partner's stylesheet might do; none of it may reach into the widget.
const hostileCss = `
* { color: red !important; font-family: "Comic Sans MS", cursive !important; background: yellow !important; }
div, section, button, input, select, textarea, fieldset { border: 4px dashed lime !important; font-size: 30px !important; }
form, label, legend, .button, .field, .root { display: none !important; visibility: hidden !important; }
`
// As strict as a partner may be: nothing inline, the portal allowed for scripts, calls and images only.
const strictCsp = `default-src 'none'; script-src ${portal}; connect-src ${portal}; img-src ${portal}; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`

function partnerPage(language: Language, workshopId: string) {
	return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Partner car club</title>
<link rel="stylesheet" href="/hostile.css">
<script src="${portal}/widgets/widgets.js" async></script>
</head>
<body>
<h1>Partner car club</h1>
<div id="request" data-workshop-widget="request" data-lang="${language}" data-workshop-id="${workshopId}" data-services="tyres"><a href="${portal}/new-service-register">Ask for an offer</a></div>
</body>
</html>`
}

let server: http.Server
let workshop: { id: string; name: string }

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ playwright }) => {
	const api = await playwright.request.newContext({ baseURL: portal })
	// A workshop with a calendar: its next free times are offered in the widget.
	const list = (await (await api.get('/admin/api/workshop-list?lng=en&sort=reviews')).json()) as { data: { items: Array<{ id: string; name: string; nextFree: unknown }> } }
	workshop = list.data.items.find((item) => item.nextFree)!
	await api.dispose()
	server = http.createServer((req, res) => {
		if (req.url === '/hostile.css') {
			res.writeHead(200, { 'Content-Type': 'text/css' })
			return res.end(hostileCss)
		}
		const language = (new URL(req.url ?? '/', partner).searchParams.get('lng') ?? 'en') as Language
		res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': strictCsp })
		res.end(partnerPage(language, workshop.id))
	})
	await new Promise<void>((resolve) => server.listen(partnerPort, '127.0.0.1', resolve))
})

test.afterAll(async () => {
	await new Promise((resolve) => server?.close(resolve))
})

/** A visitor of the partner's page from an address of their own (added on the way out, as in widgets.spec.ts). */
async function visitPartner(page: Page, language: Language) {
	const ip = `10.252.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`
	await page.context().setExtraHTTPHeaders({})
	await page.route(`${portal}/**`, (route) => route.continue({ headers: { ...route.request().headers(), 'x-forwarded-for': ip } }))
	await page.goto(`${partner}/?lng=${language}`)
}

async function expectNoAxeViolations(page: Page, include?: string) {
	expect(await seriousAxeViolations(page, { include: include ? [include] : [] })).toEqual([])
}

let plates = 0
const newPlate = () => `E${(Date.now() % 1_000_000).toString().padStart(6, '0')}${++plates}`.slice(0, 10)

const flows: Array<{ language: Language; width: number; height: number }> = [
	{ language: 'et', width: 360, height: 780 },
	{ language: 'en', width: 1366, height: 900 },
	{ language: 'ru', width: 360, height: 780 },
]

for (const { language, width, height } of flows) {
	for (const javaScriptEnabled of javaScriptModes) {
		test(`${language}, ${width} px: a visitor of a partner site asks for an offer and sees it in the portal after the e-mailed link (its page with JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({ page, browser }) => {
			test.setTimeout(120_000)
			const t = dictionary(language, 'widgets')
			const customer = dictionary(language, 'customer')
			const auth = dictionary(language, 'auth')
			const common = dictionary(language)
			await page.setViewportSize({ width, height })
			await visitPartner(page, language)
			const widget = page.locator('#request')
			const byLabel = (text: string) => widget.getByLabel(text, { exact: true })
			await expect(widget.getByRole('heading', { level: 2, name: t('request.title') })).toBeVisible()
			// The partner's fallback link is replaced by the widget; the hostile CSS stops at the shadow root.
			await expect(page.locator('#request > a')).toBeHidden()
			const submit = widget.getByRole('button', { name: customer('request.submit') })
			expect(await submit.evaluate((el) => getComputedStyle(el).display)).not.toBe('none')
			expect(await submit.evaluate((el) => getComputedStyle(el).fontFamily)).not.toContain('Comic')
			await expect(widget).toContainText(customer('request.addressedTo', { workshop: workshop.name }))

			// Sent empty: the portal's rules say what is missing, next to each field, and the first takes the focus.
			await submit.click()
			const brand = byLabel(customer('vehicle.brand'))
			await expect(brand).toBeFocused()
			await expect(brand).toHaveAttribute('aria-invalid', 'true')
			await expect(widget.getByText(common('validation.required')).first()).toBeVisible()
			// The partner's preset (data-services="tyres") is ticked.
			const tyres = widget.getByRole('group', { name: new RegExp(customer('request.services')) }).getByRole('checkbox', { checked: true })
			await expect(tyres).toHaveCount(1)

			const plate = newPlate()
			const email = uniqueEmail(`widget-${language}`)
			await brand.selectOption({ index: 1 })
			await byLabel(customer('vehicle.model')).fill('Corolla')
			await byLabel(customer('vehicle.vehicleYear')).fill('2017')
			await byLabel(customer('vehicle.registrationNumber')).fill(plate)
			await byLabel(customer('vehicle.transmission')).selectOption('automatic')
			await byLabel(customer('vehicle.mileage')).fill('123 456')
			// The workshop's next free times (its calendar): one chosen fills in the wished time.
			const freeTime = widget.locator('.free-times button').first()
			await freeTime.click()
			await expect(freeTime).toHaveAttribute('aria-pressed', 'true')
			await expect(byLabel(customer('request.preferredAt'))).not.toHaveValue('')
			await byLabel(customer('request.location')).fill('Tallinn, Kristiine')
			await byLabel(customer('request.details')).fill('Talverehvid alla, palun.')
			const photo = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#246' } }).jpeg().toBuffer()
			await byLabel(customer('request.images')).setInputFiles({ name: 'tyres.jpg', mimeType: 'image/jpeg', buffer: photo })
			await expect(widget.getByRole('list', { name: t('request.photosChosen') }).getByRole('listitem')).toHaveCount(1)
			await byLabel(auth('register.firstName')).fill('Mari')
			await byLabel(auth('register.lastName')).fill('Maasikas')
			await byLabel(auth('register.mobile')).fill('+372 5123 4567')

			// The portal's own refusal, shown at its field: a throwaway address.
			const emailField = byLabel(auth('register.email'))
			await emailField.fill('someone@mailinator.com')
			await submit.click()
			await expect(widget.getByText(t('request.disposableEmail'))).toBeVisible()
			await expect(emailField).toHaveAttribute('aria-invalid', 'true')
			await expect(emailField).toBeFocused()

			await emailField.fill(email)
			if (language === 'en') await expectNoAxeViolations(page, '#request')
			await submit.click()
			const thanks = widget.getByRole('status')
			await expect(thanks).toHaveText(t('request.checkEmail', { email }))
			await expect(widget.getByRole('heading', { level: 2, name: t('request.checkEmailTitle') })).toBeFocused()

			// The e-mail, in the visitor's language, with the link; nothing reached the workshop yet.
			const mail = await waitForEmail({ to: email, subject: t('request.email.subject') })
			expect(mail.text).toContain(plate)
			const link = /http:\/\/127\.0\.0\.1:\d+\/confirm-request\/[\w-]+\?lng=\w+/.exec(mail.text)![0]
			expect(new URL(link).searchParams.get('lng')).toBe(language)

			await confirmInAnotherBrowser(browser, { link, javaScriptEnabled, width, height, language, plate, axe: language !== 'ru' })
		})
	}
}

/** The link opened where the e-mail is read: the page, its button, the request in the portal; then the link again. */
async function confirmInAnotherBrowser(browser: Browser, flow: { link: string; javaScriptEnabled: boolean; width: number; height: number; language: Language; plate: string; axe: boolean }) {
	const t = dictionary(flow.language, 'widgets')
	const context = await browser.newContext({ javaScriptEnabled: flow.javaScriptEnabled, viewport: { width: flow.width, height: flow.height }, extraHTTPHeaders: { 'X-Forwarded-For': `10.253.${Math.floor(Math.random() * 250)}.9` } })
	const mailPage = await context.newPage()
	const problems: string[] = []
	mailPage.on('pageerror', (error) => problems.push(error.message))
	mailPage.on('console', (message) => message.type() === 'error' && !/status of 4\d\d/.test(message.text()) && problems.push(message.text()))
	await open(mailPage, flow.link, flow.javaScriptEnabled)
	await expect(mailPage.getByRole('heading', { level: 1, name: t('confirm.title') })).toBeVisible()
	await expect(mailPage.getByText(flow.plate)).toBeVisible()
	// axe runs in the page: with JavaScript on (the markup is the server's either way).
	if (flow.axe && flow.javaScriptEnabled) await expectNoAxeViolations(mailPage)
	const overflow = await mailPage.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
	expect(overflow).toBeLessThanOrEqual(0)
	await mailPage.getByRole('button', { name: t('confirm.submit') }).click()

	// Signed in as the new guest, on the request's page.
	await mailPage.waitForURL(/\/request-details\//)
	await expect(mailPage.locator('.Toastify__toast, .flash').filter({ hasText: t('confirm.sentSignedIn') }).first()).toBeVisible()
	await expect(mailPage.getByText(flow.plate).first()).toBeVisible()
	const requestUrl = mailPage.url()

	// The link again: the same request, never a second one.
	await open(mailPage, flow.link, flow.javaScriptEnabled)
	await mailPage.waitForURL(requestUrl)
	// In a browser without the session: "already sent", and the way to log in to it.
	const other = await browser.newContext({ javaScriptEnabled: flow.javaScriptEnabled, viewport: { width: flow.width, height: flow.height } })
	const elsewhere = await other.newPage()
	await open(elsewhere, flow.link, flow.javaScriptEnabled)
	await expect(elsewhere.getByRole('heading', { level: 1, name: t('confirm.sentTitle') })).toBeVisible()
	await expect(elsewhere.getByRole('link', { name: t('confirm.logInToSee') })).toHaveAttribute('href', new RegExp(`^/login\\?redirectTo=${encodeURIComponent(new URL(requestUrl).pathname)}`))
	await other.close()
	await context.close()
	expect(problems).toEqual([])
}

test('an unknown link says so', async ({ page }) => {
	const t = dictionary('en', 'widgets')
	const response = await page.goto(`${portal}/confirm-request/not-a-real-token?lng=en`)
	expect(response?.status()).toBe(404)
	await expect(page.getByRole('heading', { level: 1, name: t('confirm.unknownTitle') })).toBeVisible()
})

test('the request widget fits a 320 px wide screen', async ({ page }) => {
	await page.setViewportSize({ width: 320, height: 800 })
	await visitPartner(page, 'en')
	await expect(page.locator('#request').getByRole('heading', { level: 2 })).toBeVisible()
	const overflow = await page.evaluate(() => {
		const root = document.querySelector('#request')!.shadowRoot!.querySelector('.root')!
		return root.scrollWidth - root.clientWidth
	})
	expect(overflow).toBe(0)
})
