import { dictionary, expect, expectToast, javaScriptModes, open, test, uniqueEmail } from './fixtures'
import { person, register } from './people'

/**
 * The workshop's calendar (issue 33): a new workshop sets its bays, Monday's hours with a lunch
 * break and a day off; a closing time before the opening is refused at its field in the reader's
 * language; the week of a public holiday marks it; the private feed is made, read as text/calendar
 * and revoked (then 404). With JavaScript on and off.
 */
const b = dictionary('en', 'booking')
const bEt = dictionary('et', 'booking')
const commonEt = dictionary('et', 'common')
const interval = (t: typeof b, day: string, number: number, edge: 'opens' | 'closes') =>
	t('calendar.interval', { day: t(`calendar.days.${day}`), number, edge: t(`calendar.${edge}`) })

for (const javaScriptEnabled of javaScriptModes) {
	test(`a workshop sets its calendar, sees a holiday in its agenda and subscribes to its feed, with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({ browser, baseURL }) => {
		test.setTimeout(120_000)
		const page = await person(browser, javaScriptEnabled, baseURL)
		await register(page, 'workshop', uniqueEmail('calendar'), { first: 'Kalle', last: 'Kalender', workshop: `Calendar Garage ${Date.now().toString(36)}` })
		await open(page, '/workshop-calendar?lng=en', javaScriptEnabled)
		await expect(page.getByRole('heading', { level: 1, name: b('calendar.title') })).toBeVisible()
		// The side menu leads here.
		await expect(page.locator('.shell__side-menu, .shell__phone-menu').getByRole('link', { name: b('calendar.menu') }).first()).toHaveAttribute('href', '/workshop-calendar')

		// Two bays, Monday 08:00–12:00 and 12:30–17:00, a day off.
		const settings = page.getByRole('region', { name: b('calendar.settingsTitle') })
		await settings.getByLabel(b('calendar.bays')).fill('2')
		await settings.getByLabel(interval(b, 'mon', 1, 'opens')).fill('08:00')
		await settings.getByLabel(interval(b, 'mon', 1, 'closes')).fill('12:00')
		await settings.getByLabel(interval(b, 'mon', 2, 'opens')).fill('12:30')
		await settings.getByLabel(interval(b, 'mon', 2, 'closes')).fill('17:00')
		await settings.getByLabel(b('calendar.dayOff'), { exact: true }).fill('2030-03-12')
		await settings.getByLabel(b('calendar.dayOffNote')).fill('Stocktaking')
		await settings.getByRole('button', { name: b('calendar.save') }).click()
		await expectToast(page, b('calendar.saved'))
		await expect(settings.getByLabel(b('calendar.bays'))).toHaveValue('2')
		await expect(settings.getByLabel(interval(b, 'mon', 2, 'opens'))).toHaveValue('12:30')
		await expect(settings.getByLabel(interval(b, 'mon', 2, 'closes'))).toHaveValue('17:00')
		await expect(settings.getByText('Stocktaking')).toBeVisible()

		// A closing time before the opening, in Estonian: refused at its field, nothing saved.
		await open(page, '/workshop-calendar?lng=et', javaScriptEnabled)
		const seaded = page.getByRole('region', { name: bEt('calendar.settingsTitle') })
		await seaded.getByLabel(interval(bEt, 'tue', 1, 'opens')).fill('10:00')
		await seaded.getByLabel(interval(bEt, 'tue', 1, 'closes')).fill('09:00')
		await seaded.getByRole('button', { name: bEt('calendar.save') }).click()
		const closes = seaded.getByLabel(interval(bEt, 'tue', 1, 'closes'))
		await expect(closes).toHaveAttribute('aria-invalid', 'true')
		await expect(seaded.getByText(commonEt('validation.closesAfterOpens'))).toBeVisible()
		// The input is kept.
		await expect(closes).toHaveValue('09:00')
		await open(page, '/workshop-calendar?lng=en', javaScriptEnabled)
		await expect(settings.getByLabel(interval(b, 'tue', 1, 'closes'))).not.toHaveValue('09:00')

		// The week of 24 February 2027 marks Independence Day.
		await open(page, '/workshop-calendar?view=week&day=2027-02-24', javaScriptEnabled)
		const agendaPanel = page.getByRole('region', { name: b('calendar.agendaTitle') })
		await expect(agendaPanel.getByText(b('calendar.holiday', { name: b('holidays.independenceDay') }))).toBeVisible()
		await expect(agendaPanel.locator('.agenda__day')).toHaveCount(7)
		await agendaPanel.getByRole('link', { name: b('calendar.nextWeek') }).click()
		await expect(page).toHaveURL(/day=2027-03-01/)
		await agendaPanel.getByRole('link', { name: b('calendar.dayView'), exact: true }).click()
		await expect(agendaPanel.locator('.agenda__day')).toHaveCount(1)

		// The feed: made, read as a calendar, revoked.
		await open(page, '/workshop-calendar', javaScriptEnabled)
		const feed = page.getByRole('region', { name: b('feed.title') })
		await feed.getByRole('button', { name: b('feed.start') }).click()
		await expectToast(page, b('feed.started'))
		const link = await feed.getByLabel(b('feed.link')).inputValue()
		expect(link).toMatch(/\/workshop-calendar\/feed\/[A-Za-z0-9_-]{32}\.ics$/)
		const feedPath = new URL(link).pathname
		const phone = await browser.newContext({ baseURL })
		const answer = await phone.request.get(feedPath)
		expect(answer.status()).toBe(200)
		expect(answer.headers()['content-type']).toContain('text/calendar')
		expect(await answer.text()).toContain('BEGIN:VCALENDAR')
		await feed.getByRole('link', { name: b('feed.revoke') }).click()
		await page.getByRole('button', { name: b('feed.revoke') }).click()
		await expectToast(page, b('feed.revoked'))
		await expect(feed.getByLabel(b('feed.link'))).toHaveCount(0)
		expect((await phone.request.get(feedPath)).status()).toBe(404)
		await phone.close()

		if (javaScriptEnabled) {
			for (const width of [1366, 360]) {
				await page.setViewportSize({ width, height: 900 })
				await open(page, '/workshop-calendar?view=week&day=2027-02-24', javaScriptEnabled)
				const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
				expect(overflow, `sideways scroll at ${width} px`).toBeLessThanOrEqual(0)
			}
		}
		await page.context().close()
	})
}
