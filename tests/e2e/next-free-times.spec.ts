import fs from 'node:fs'
import { type Page } from '@playwright/test'
import { demo, dictionary, expect, javaScriptModes, open, test, uniqueEmail } from './fixtures'
import { completeTyreWorkshopProfile, person, register } from './people'

/**
 * Next free times are real (issue 33, item 7): on a workshop's page they come from its calendar and
 * each opens the request form addressed to it with the time filled in (a visitor logs in on the
 * way); the directory's card links its next free time, and "free this week" narrows the list.
 */
const enAuth = dictionary('en', 'auth')
const enPublic = dictionary('en', 'public')
const enCustomer = dictionary('en', 'customer')
const enBooking = dictionary('en', 'booking')

/** The `at` a link to the request form carries, through the log-in's way back or straight. */
function atOf(href: string) {
	const url = new URL(href, 'http://portal')
	const target = url.pathname === '/login' ? new URL(url.searchParams.get('redirectTo')!, 'http://portal') : url
	expect(target.pathname).toBe('/new-service-register')
	return { workshop: target.searchParams.get('workshop')!, at: target.searchParams.get('at')! }
}

async function viljandiPage(page: Page, javaScriptEnabled: boolean) {
	await open(page, '/workshop-list?q=viljandi&lng=en', javaScriptEnabled)
	await page.getByRole('link', { name: 'Viljandi Autokeskus' }).click()
	await expect(page).toHaveURL(/\/workshop-details\/[A-Za-z0-9_-]+$/)
	return page.url().split('/workshop-details/')[1]!
}

for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`next free times, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		test('a free time on the workshop’s page opens the request form, after logging in, with the workshop and the time filled in', async ({ page }) => {
			const id = await viljandiPage(page, javaScriptEnabled)
			const panel = page.getByRole('region', { name: enPublic('workshop.nextFreeTimes') })
			await expect(panel).toContainText(enBooking('public.hint'))
			const links = panel.getByTestId('free-times').getByRole('link')
			await expect(links).toHaveCount(3)
			const first = links.first()
			// Weekday, date and time in Tallinn, and a name that says what the link does.
			const label = (await first.innerText()).trim()
			expect(label).toMatch(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b.*\d{2}:\d{2}$/)
			await expect(first).toHaveAccessibleName(enBooking('public.askAt').replace('{{time}}', label))
			const { workshop, at } = atOf((await first.getAttribute('href'))!)
			expect(workshop).toBe(id)
			expect(at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/)

			await first.click()
			await expect(page).toHaveURL(/\/login\?redirectTo=/)
			await page.getByLabel(enAuth('login.email')).fill(demo.customer.email)
			await page.getByLabel(enAuth('login.password')).fill(demo.customer.password)
			await page.getByRole('button', { name: enAuth('login.submit') }).click()
			await expect(page).toHaveURL(new RegExp(`/new-service-register\\?workshop=${id}&at=${at.replace(':', '(:|%3A)')}$`))
			await expect(page.getByRole('heading', { level: 1 })).toHaveText(enCustomer('request.newTitle'))
			await expect(page.locator('.addressed')).toContainText(enCustomer('request.addressedTo').replace('{{workshop}}', 'Viljandi Autokeskus'))
			await expect(page.getByLabel(enCustomer('request.preferredAt'))).toHaveValue(at)

			// A signed-in customer's links lead straight to the form; a garbled or past time is ignored.
			await open(page, `/workshop-details/${id}?lng=en`, javaScriptEnabled)
			const direct = (await page.getByTestId('free-times').getByRole('link').first().getAttribute('href'))!
			expect(direct).toMatch(/^\/new-service-register\?workshop=/)
			for (const bad of ['2001-01-01T10:00', 'garbage', '2030-02-30T10:00']) {
				const response = await open(page, `/new-service-register?workshop=${id}&at=${bad}&lng=en`, javaScriptEnabled)
				expect(response!.status()).toBe(200)
				await expect(page.getByLabel(enCustomer('request.preferredAt'))).toHaveValue('')
				await expect(page.locator('.addressed')).toContainText('Viljandi Autokeskus')
			}
		})

		test('the directory’s card links the next free time, and “free this week” leaves out a workshop with none', async ({ page, browser, baseURL }) => {
			test.setTimeout(90_000)
			// A new workshop without opening hours: listed, never free.
			const name = `Suletud ${Math.random().toString(36).slice(2, 8)}`
			const owner = await person(browser, javaScriptEnabled, baseURL)
			await register(owner, 'workshop', uniqueEmail('suletud'), { first: 'Sulev', last: 'Suletud', workshop: name })
			await completeTyreWorkshopProfile(owner, javaScriptEnabled)
			await owner.context().close()

			// The demo workshops' next free times are filled by the job soon after the start.
			await expect(async () => {
				await open(page, '/workshop-list?q=viljandi&lng=en', javaScriptEnabled)
				const card = page.locator('.directory__results .workshop-card').filter({ hasText: 'Viljandi Autokeskus' })
				await expect(card).toContainText(enBooking('public.nextFree'), { timeout: 1000 })
				const link = card.locator('.workshop-card__free a')
				expect(atOf((await link.getAttribute('href'))!).at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/)
			}).toPass({ timeout: 30_000 })

			await open(page, `/workshop-list?q=${encodeURIComponent(name)}&lng=en`, javaScriptEnabled)
			const cards = page.locator('.directory__results .workshop-card')
			await expect(cards).toHaveCount(1)
			await expect(cards.first()).not.toContainText(enBooking('public.nextFree'))
			const free = page.getByLabel(enBooking('public.freeThisWeek'))
			await expect(free).not.toBeChecked()
			await free.check()
			await page.getByRole('button', { name: enPublic('search.submit') }).click()
			await expect(page).toHaveURL(/[?&]free=week/)
			await expect(cards).toHaveCount(0)
			await expect(page.getByLabel(enBooking('public.freeThisWeek'))).toBeChecked()

			// Every workshop the filter keeps shows its next free time.
			await open(page, '/workshop-list?free=week&lng=en', javaScriptEnabled)
			const kept = await page.locator('.directory__results .workshop-card').count()
			await expect(page.locator('.directory__results .workshop-card__free')).toHaveCount(kept)
		})
	})
}

/** The workshop's page with its time links, at a laptop's and a phone's width (SHOTS_DIR=/work/shots to take them). */
test('screenshots of the free times', async ({ page }) => {
	const dir = process.env.SHOTS_DIR
	test.skip(!dir, 'SHOTS_DIR not set')
	fs.mkdirSync(dir!, { recursive: true })
	for (const width of [1366, 360]) {
		await page.setViewportSize({ width, height: width > 400 ? 900 : 780 })
		await viljandiPage(page, true)
		await page.getByRole('region', { name: enPublic('workshop.nextFreeTimes') }).scrollIntoViewIfNeeded()
		await page.screenshot({ path: `${dir}/public-${width}.png` })
		await open(page, '/workshop-list?free=week&lng=en', true)
		await page.screenshot({ path: `${dir}/public-list-${width}.png` })
		// The demo workshops' next free times are filled by the job soon after the start.
		await expect(async () => {
			await open(page, '/workshop-list?lng=en', true)
			await expect(page.locator('.directory__results .workshop-card__free').first()).toBeVisible({ timeout: 1000 })
		}).toPass({ timeout: 30_000 })
		await page.locator('.directory__results .workshop-card__free').first().scrollIntoViewIfNeeded()
		await page.screenshot({ path: `${dir}/public-cards-${width}.png` })
	}
})
