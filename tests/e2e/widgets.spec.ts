import http from 'node:http'
import pg from 'pg'
import { roundToHalf } from '~/domain/directory/workshops'
import { type Page } from '@playwright/test'
import { dictionary, expect, test, waitForEmail } from './fixtures'

/**
 * The partner widgets (issue 9) on a partner's page served from a second origin (the portal's
 * port + 1): only the script tag, the three elements, and the partner's own hostile CSS.
 */
const portalPort = Number(process.env.E2E_PORT ?? '3210')
const portal = `http://127.0.0.1:${portalPort}`
const partnerPort = portalPort + 1
const partner = `http://127.0.0.1:${partnerPort}`

// Rules a careless partner stylesheet might have; none of them may reach into a widget.
const hostileCss = `
* { display: inline !important; color: red !important; font-family: "Comic Sans MS", cursive !important; background: yellow !important; }
div, section, button, input, select, textarea { border: 4px dashed lime !important; font-size: 30px !important; }
.button, .card, .widget, .root, h2, form, label { display: none !important; visibility: hidden !important; }
#contact { --workshop-widget-primary: rgb(0, 100, 0); }
`

function partnerPage(workshopId: string) {
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Partner garage club</title>
<style>${hostileCss}</style>
<script src="${portal}/widgets/widgets.js" async></script>
</head>
<body>
<h1 id="partner-title">Partner garage club</h1>
<p class="card" id="partner-card">The partner's own card</p>
<div id="list" data-workshop-widget="list" data-lang="en" data-city="Tallinn"><a href="${portal}/workshop-list">Workshops</a></div>
<div id="details" data-workshop-widget="details" data-lang="en" data-workshop-id="${workshopId}"></div>
<div id="contact" data-workshop-widget="contact" data-lang="en"></div>
<div id="later"></div>
</body>
</html>`
}

let server: http.Server
let workshop: { id: string; name: string; average: number; count: number }
let tallinnTotal: number

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({ playwright }) => {
	const api = await playwright.request.newContext({ baseURL: portal })
	// The workshop with the most reviews: more than one page of them.
	const list = (await (await api.get('/admin/api/workshop-list?lng=en&sort=reviews')).json()) as { data: { items: Array<{ id: string; name: string }> } }
	const first = list.data.items[0]!
	const details = (await (await api.get(`/admin/api/workshop-details/${first.id}?lng=en`)).json()) as { data: { rating: { average: number; count: number } } }
	workshop = { id: first.id, name: first.name, ...details.data.rating }
	const tallinn = (await (await api.get('/admin/api/workshop-list?lng=en&city=tallinn')).json()) as { data: { total: number } }
	tallinnTotal = tallinn.data.total
	await api.dispose()
	server = http.createServer((_req, res) => {
		res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
		res.end(partnerPage(workshop.id))
	})
	await new Promise<void>((resolve) => server.listen(partnerPort, '127.0.0.1', resolve))
})

test.afterAll(async () => {
	await new Promise((resolve) => server?.close(resolve))
})

const t = dictionary('en', 'public')
const w = dictionary('en', 'widgets')
const common = dictionary('en')
/**
 * A visitor of the partner's page, from an address of its own. The fixture's X-Forwarded-For as
 * an extra header would make Chromium ask every cross-origin call for a CORS preflight, which no
 * real visitor's browser does; added on the way out instead, it changes nothing in the browser.
 */
async function visitPartner(page: Page, ip = `10.250.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`) {
	await page.context().setExtraHTTPHeaders({})
	await page.route(`${portal}/**`, (route) => route.continue({ headers: { ...route.request().headers(), 'x-forwarded-for': ip } }))
	await page.goto(partner)
}

const fill = (text: string, params: Record<string, string | number>) => text.replace(/{{(\w+)}}/g, (_, name: string) => String(params[name]))

test('the list widget searches, filters and pages through the directory', async ({ page }) => {
	await visitPartner(page)
	const list = page.locator('#list')
	await expect(list.getByRole('heading', { name: t('list.title') })).toBeVisible()
	// data-city="Tallinn" (a name) became the filter.
	await expect(list.getByLabel(t('search.city'))).toHaveValue('tallinn')
	// Other tests may add Tallinn workshops while this runs: the widget's own count is the measure.
	const status = list.getByRole('status').filter({ hasText: /\d/ })
	await expect(status).toBeVisible()
	const found = Number((await status.textContent())!.replace(/\D/g, ''))
	expect(found).toBeGreaterThanOrEqual(tallinnTotal)
	await expect(status).toHaveText(fill(t('list.found'), { total: found }))
	// The sorted list, apart from the paid workshops' block above it (issue 32).
	const results = list.getByRole('list', { name: t('list.resultsTitle') })
	await expect(results.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) })).toHaveCount(Math.min(found, 9))

	// A name search that finds one workshop; its name links to the full profile on the portal.
	await list.getByLabel(t('search.name')).fill('Kask')
	await list.getByRole('button', { name: t('search.submit') }).click()
	await expect(list.getByText(t('list.foundOne'))).toBeVisible()
	const link = list.getByRole('link', { name: 'Kask Autoteenindus' })
	await expect(link).toHaveAttribute('href', new RegExp(`^${portal}/workshop-details/`))

	// A filter that matches nothing: the empty state.
	await list.getByLabel(t('search.city')).selectOption({ label: 'Tartu' })
	await expect(list.getByText(t('list.empty'))).toBeVisible()

	// Clear everything: all workshops, two pages, sorted by name.
	await list.getByRole('button', { name: t('list.clear') }).click()
	await list.getByLabel(t('list.sort')).selectOption('name')
	const pages = list.getByRole('navigation', { name: t('list.pagination') })
	const pageOf = (page: number) => new RegExp(fill(w('pageOf'), { page, total: 'TOTAL' }).replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('TOTAL', '(\\d+)'))
	await expect(pages.getByText(pageOf(1))).toBeVisible()
	const totalPages = Number(pageOf(1).exec((await pages.getByText(pageOf(1)).textContent())!)![1])
	expect(totalPages).toBeGreaterThanOrEqual(2)
	const firstOnPage1 = await results.getByRole('heading', { level: 3 }).first().textContent()
	await pages.getByRole('button', { name: t('pagination.next') }).click()
	await expect(pages.getByText(pageOf(2))).toBeVisible()
	await expect(results.getByRole('heading', { level: 3 }).first()).not.toHaveText(firstOnPage1!)
	if (totalPages === 2) await expect(pages.getByRole('button', { name: t('pagination.next') })).toBeDisabled()
	await expect(list.getByRole('link', { name: w('register') })).toHaveAttribute('href', `${portal}/register`)
	// Logos come from the portal (Cross-Origin-Resource-Policy: cross-origin) and load here.
	const logo = list.locator('.card__logo img').first()
	await expect(logo).toHaveJSProperty('complete', true)
	expect(await logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
})

test('the list widget sorts best rated first and shows the paid workshops apart, labelled as an ad (issue 32)', async ({ page }) => {
	type Card = { name: string; ratingAverage: number; featured: boolean }
	const api = (await (await page.request.get(`${portal}/admin/api/workshop-list?lng=en&city=tallinn`)).json()) as { data: { items: Card[]; promoted: Card[] } }
	const best = api.data.items[0]!
	const paidLower = api.data.items.filter((w) => w.featured && w.ratingAverage < best.ratingAverage).at(-1)!
	expect(best.featured).toBe(false)
	expect(paidLower).toBeTruthy()
	await visitPartner(page)
	const list = page.locator('#list')
	const results = list.getByRole('list', { name: t('list.resultsTitle') })
	await expect(results.getByRole('heading', { level: 3 }).first()).toHaveText(best.name)
	const names = await results.getByRole('heading', { level: 3 }).allTextContents()
	expect(names.indexOf(best.name)).toBeLessThan(names.indexOf(paidLower.name))
	// The paid ones above the list, in a block labelled as an ad, and no "Featured" badge in the list.
	const ad = list.getByRole('complementary', { name: t('promoted.label'), exact: true })
	await expect(ad.getByRole('heading', { level: 3 })).toHaveText(api.data.promoted.map((w) => w.name))
	await expect(ad).toContainText(t('promoted.note').replace('{{sort}}', t('list.sorts.rating')))
	expect((await ad.boundingBox())!.y).toBeLessThan((await results.boundingBox())!.y)
	await expect(results.getByText(t('workshop.featured'), { exact: true })).toHaveCount(0)
})

test('the details widget shows the rating with half stars and opens the reviews, page by page', async ({ page }) => {
	await visitPartner(page)
	const details = page.locator('#details')
	await expect(details.getByRole('heading', { level: 2, name: workshop.name })).toBeVisible()
	await expect(details.getByText(fill(t('rating.basedOn'), { total: workshop.count }))).toBeVisible()
	// Five stars rounded to the nearest half, read aloud as the average.
	const stars = details.locator('.profile .stars')
	await expect(stars).toHaveAttribute('role', 'img')
	const shown = roundToHalf(workshop.average)
	const fills = await stars.locator('svg').evaluateAll((svgs) => svgs.map((svg) => svg.getAttribute('data-fill')))
	expect(fills).toEqual([0, 1, 2, 3, 4].map((i) => (shown - i >= 1 ? 'full' : shown - i === 0.5 ? 'half' : 'empty')))
	await expect(details.getByRole('link', { name: w('fullProfile') })).toHaveAttribute('href', `${portal}/workshop-details/${workshop.id}`)

	// Its next free times from its calendar (issue 33): links to the portal's request form addressed
	// to it with the time filled in, by way of the log-in page.
	await expect(details.getByRole('heading', { level: 3, name: t('workshop.nextFreeTimes') })).toBeVisible()
	const times = details.locator('.free-times a')
	await expect(times).toHaveCount(3)
	const href = (await times.first().getAttribute('href'))!
	expect(href.startsWith(`${portal}/login?redirectTo=`)).toBe(true)
	expect(new URL(href).searchParams.get('redirectTo')).toMatch(new RegExp(`^/new-service-register\\?workshop=${workshop.id}&at=\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}$`))
	const label = (await times.first().innerText()).trim()
	await expect(times.first()).toHaveAccessibleName(dictionary('en', 'booking')('public.askAt').replace('{{time}}', label))

	// The reviews are behind a button; it says how many there are.
	const reviews = details.getByRole('region', { name: t('reviews.title') })
	await expect(reviews).toBeHidden()
	const toggle = details.getByRole('button', { name: fill(w('showReviews'), { count: workshop.count }) })
	await expect(toggle).toHaveAttribute('aria-expanded', 'false')
	await toggle.press('Enter')
	await expect(reviews).toBeVisible()
	await expect(details.getByRole('button', { name: w('hideReviews') })).toHaveAttribute('aria-expanded', 'true')
	await expect(reviews.getByRole('listitem')).toHaveCount(5)
	await expect(reviews.getByText(fill(t('reviews.replyFrom'), { workshop: workshop.name })).first()).toBeVisible()
	// Each is about a verified job, and says what was quoted and what was paid (issue 19).
	await expect(reviews.getByText(t('reviews.verified'), { exact: true })).toHaveCount(5)
	await expect(reviews.getByText(/Quoted €[\d,.]+ · Paid €[\d,.]+/).first()).toBeVisible()
	const pages = reviews.getByRole('navigation', { name: t('reviews.pagination') })
	await pages.getByRole('button', { name: t('pagination.next') }).click()
	await expect(pages.getByText(fill(w('pageOf'), { page: 2, total: Math.ceil(workshop.count / 5) }))).toBeVisible()
	await expect(reviews.getByRole('listitem')).toHaveCount(workshop.count - 5)
})

test('the contact widget validates, shows the server’s field errors and stores the message', async ({ page }) => {
	await visitPartner(page)
	const contact = page.locator('#contact')
	const send = contact.getByRole('button', { name: t('contact.send') })
	await expect(send).toBeVisible()

	// In the browser, with the portal's schema.
	await send.click()
	await expect(contact.getByText(common('validation.required'))).toHaveCount(3)
	await expect(contact.getByLabel(t('contact.name'))).toBeFocused()
	const name = `Widget tester ${Date.now()}`
	await contact.getByLabel(t('contact.name')).fill(name)
	await expect(contact.getByText(common('validation.required'))).toHaveCount(2)
	await contact.getByLabel(t('contact.emailAddress')).fill('tester@example.com')
	await contact.getByLabel(t('contact.message')).fill('Tere! Küsimus partneri lehelt.')

	// The server's own field errors: the address is spoiled on its way, so the portal refuses it.
	await page.route(`${portal}/admin/api/contact-us*`, async (route) => {
		if (route.request().method() !== 'POST') return route.fallback()
		await page.unroute(`${portal}/admin/api/contact-us*`)
		await route.fallback({ postData: JSON.stringify({ ...route.request().postDataJSON(), email: 'not-an-address' }) })
	})
	await send.click()
	await expect(contact.getByRole('alert')).toHaveText(common('validation.invalid'))
	await expect(contact.getByText(common('validation.email'))).toBeVisible()
	await expect(contact.getByLabel(t('contact.emailAddress'))).toHaveAttribute('aria-invalid', 'true')

	// Sent for real: thanks, and the message is in the database.
	await send.click()
	await expect(contact.getByRole('status')).toHaveText(t('contact.thanks'))
	// The e-mail to the site is queued in the same transaction as the stored message (app/domain/messaging/contact.server.ts).
	const mail = await waitForEmail({ to: 'info@autohub.example', subject: new RegExp(name) })
	expect(mail.text).toContain('tester@example.com')
	expect(mail.text).toContain('Tere! Küsimus partneri lehelt.')
	if (process.env.TEST_DATABASE_URL) {
		const url = new URL(process.env.TEST_DATABASE_URL)
		url.pathname = `/autohub_e2e_${portalPort}`
		const client = new pg.Client({ connectionString: url.toString() })
		await client.connect()
		const { rows } = await client.query('select email, message, language from contact_messages where name = $1', [name])
		await client.end()
		expect(rows).toEqual([{ email: 'tester@example.com', message: 'Tere! Küsimus partneri lehelt.', language: 'en' }])
	}
})

test('the contact widget shows the rate limit the portal answers with', async ({ page, playwright }) => {
	const ip = `10.251.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`
	const api = await playwright.request.newContext({ baseURL: portal, extraHTTPHeaders: { 'X-Forwarded-For': ip } })
	for (let i = 0; i < 5; i++) {
		const response = await api.post('/admin/api/contact-us?lng=en', { data: { name: 'Limit', email: 'limit@example.com', message: `Message ${i}` } })
		expect(response.status()).toBe(200)
	}
	await api.dispose()
	await visitPartner(page, ip)
	const contact = page.locator('#contact')
	await contact.getByLabel(t('contact.name')).fill('Limit')
	await contact.getByLabel(t('contact.emailAddress')).fill('limit@example.com')
	await contact.getByLabel(t('contact.message')).fill('One too many')
	await contact.getByRole('button', { name: t('contact.send') }).click()
	await expect(contact.getByRole('alert')).toContainText(common('validation.tooManyAttempts').split('{{')[0]!.trim())
})

test('the partner’s CSS does not change the widgets, and theirs does not leak out', async ({ page }) => {
	await visitPartner(page)
	await expect(page.locator('#contact').getByRole('button', { name: t('contact.send') })).toBeVisible()
	await expect(page.locator('#list').getByRole('heading', { level: 3 }).first()).toBeVisible()

	// The partner's CSS is in force on the partner's own elements.
	const partnerTitle = await page.locator('#partner-title').evaluate((el) => getComputedStyle(el).color)
	expect(partnerTitle).toBe('rgb(255, 0, 0)')

	const inside = await page.evaluate(() => {
		const host = document.querySelector('#contact')!
		const shadow = host.shadowRoot!
		const style = (el: Element) => getComputedStyle(el)
		const title = shadow.querySelector('h2')!
		const button = shadow.querySelector('button[type="submit"]')!
		const input = shadow.querySelector('input[name="name"]')!
		const label = shadow.querySelector('label')!
		return {
			host: { display: style(host).display, color: style(host).color, background: style(host).backgroundColor },
			root: style(shadow.querySelector('.root')!).display,
			title: { display: style(title).display, color: style(title).color, font: style(title).fontFamily, visibility: style(title).visibility },
			button: { display: style(button).display, background: style(button).backgroundColor, visibility: style(button).visibility },
			input: { display: style(input).display, border: style(input).borderTopStyle, fontSize: style(input).fontSize },
			label: style(label).display,
		}
	})
	expect(inside.host.display).toBe('block')
	expect(inside.host.color).not.toBe('rgb(255, 0, 0)')
	expect(inside.root).toBe('block')
	expect(inside.title.font).not.toContain('Comic')
	expect({ ...inside.title, font: undefined }).toEqual({ display: 'block', color: 'rgb(43, 52, 69)', font: undefined, visibility: 'visible' })
	// Themed by the partner through a custom property.
	// A flex item of its row of actions: its inline-flex is blockified to flex.
	expect(inside.button).toEqual({ display: 'flex', background: 'rgb(0, 100, 0)', visibility: 'visible' })
	expect(inside.input).toEqual({ display: 'block', border: 'solid', fontSize: '16px' })
	expect(inside.label).toBe('block')

	// The widgets' rules (.card, .button) stay inside: the partner's own .card is untouched.
	const partnerCard = await page.locator('#partner-card').evaluate((el) => ({ radius: getComputedStyle(el).borderTopLeftRadius, padding: getComputedStyle(el).paddingTop }))
	expect(partnerCard).toEqual({ radius: '0px', padding: '0px' })
	// Without JavaScript the partner's fallback link would show; with it, the shadow root replaces it.
	await expect(page.locator('#list > a')).toBeHidden()
})

test('widgets added later are mounted and removed through window.WorkshopWidgets', async ({ page }) => {
	await visitPartner(page)
	await page.waitForFunction(() => 'WorkshopWidgets' in window)
	await page.evaluate(() => {
		const element = document.querySelector('#later')!
		;(window as unknown as { WorkshopWidgets: { mount: (el: Element, options: object) => boolean } }).WorkshopWidgets.mount(element, { widget: 'contact', lang: 'ru' })
	})
	const later = page.locator('#later')
	await expect(later.getByRole('heading', { name: dictionary('ru', 'public')('contact.title') })).toBeVisible()
	// Side by side with the English ones.
	await expect(page.locator('#contact').getByRole('heading', { name: t('contact.title') })).toBeVisible()
	await page.evaluate(() => {
		;(window as unknown as { WorkshopWidgets: { unmount: (el: Element) => boolean } }).WorkshopWidgets.unmount(document.querySelector('#later')!)
	})
	await expect(later.getByRole('heading')).toHaveCount(0)
})

test('the widgets fit a 320 px wide screen', async ({ page }) => {
	await page.setViewportSize({ width: 320, height: 800 })
	await visitPartner(page)
	await expect(page.locator('#list').getByRole('heading', { level: 3 }).first()).toBeVisible()
	await expect(page.locator('#details').getByRole('heading', { level: 2 })).toBeVisible()
	const overflow = await page.evaluate(() =>
		['#list', '#details', '#contact'].map((selector) => {
			const root = document.querySelector(selector)!.shadowRoot!.querySelector('.root')!
			return root.scrollWidth - root.clientWidth
		}),
	)
	expect(overflow).toEqual([0, 0, 0])
})

test('the demo page on the portal shows all four widgets', async ({ page }) => {
	await page.goto(`${portal}/widgets/demo.html`)
	await expect(page.locator('[data-workshop-widget="list"]').getByRole('heading', { level: 3 }).first()).toBeVisible()
	await expect(page.locator('#demo-details').getByRole('heading', { level: 2 })).toBeVisible()
	await expect(page.locator('[data-workshop-widget="contact"]').getByRole('button', { name: t('contact.send') })).toBeVisible()
	await expect(page.locator('[data-workshop-widget="request"]').getByRole('heading', { level: 2, name: w('request.title') })).toBeVisible()
})

test.describe('with JavaScript off', () => {
	test.use({ javaScriptEnabled: false })

	test('the partner’s fallback link inside the element leads to the portal', async ({ page }) => {
		await visitPartner(page)
		const fallback = page.locator('#list > a')
		await expect(fallback).toBeVisible()
		await expect(fallback).toHaveAttribute('href', `${portal}/workshop-list`)
	})
})
