import { dictionary, expect, expectToast, javaScriptModes, loginAsAdmin, open, type ReceivedEmail, test, uniqueEmail, waitForEmail } from './fixtures'
import { completeTyreWorkshopProfile, offerOn, person, register, vehicleAndTyreRequest } from './people'

/**
 * Issue 15 as people meet it: a new workshop learns of a matching request by e-mail and follows its
 * link to the request; the customer learns of the offer the same way; the customer's unsubscribe
 * link, opened without signing in, turns new-offer e-mails off, and the settings page shows it.
 */
const common = dictionary('en')
const account = dictionary('en', 'account')
const w = dictionary('en', 'workshop')

/** The link to `path` in the e-mail's plain-text part, as the reader would click it. */
function linkTo(mail: ReceivedEmail, path: string) {
	const found = mail.text.match(new RegExp(`https?://[^\\s\\]]*${path}[^\\s\\]]*`))?.[0]
	expect(found, `a link to ${path} in "${mail.subject}"`).toBeTruthy()
	return found!
}

for (const javaScriptEnabled of javaScriptModes) {
	test(`e-mails lead each side to the page they are about, and unsubscribe works (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({ browser, baseURL }) => {
		test.setTimeout(180_000)
		const token = Math.random().toString(36).slice(2, 8)
		const workshopName = `Mail Garage ${token}`
		const garageEmail = uniqueEmail('mail-garage')
		const customerEmail = uniqueEmail('mail-customer')
		const garage = await person(browser, javaScriptEnabled, baseURL)
		const customer = await person(browser, javaScriptEnabled, baseURL)

		await register(garage, 'workshop', garageEmail, { first: 'Maili', last: 'Meister', workshop: workshopName })
		await completeTyreWorkshopProfile(garage, javaScriptEnabled)
		await register(customer, 'customer', customerEmail, { first: 'Kirke', last: 'Kiri' })
		const slug = await vehicleAndTyreRequest(customer, token, javaScriptEnabled)

		// The workshop's e-mail about the new request, in the language it registered in.
		const request = await waitForEmail({ to: garageEmail, subject: new RegExp(`^New request: .*${token}`) }, 30_000)
		expect(request.html).toContain(`/customer-request-details/${slug}?lng=en`)
		expect(request.headers['list-unsubscribe']).toMatch(/^<http.*\/unsubscribe\/.+>$/)
		expect(request.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
		await garage.goto(linkTo(request, `/customer-request-details/${slug}`))
		await expect(garage.getByLabel(w('offer.price'))).toBeVisible()
		await offerOn(garage, slug, '185', javaScriptEnabled)

		// The customer's e-mail about the offer leads to the comparison.
		const offer = await waitForEmail({ to: customerEmail, subject: new RegExp(`^${workshopName} sent an offer`) }, 30_000)
		expect(offer.text).toContain('€185.00')
		await customer.goto(linkTo(offer, `/compaire-offers/${slug}`))
		await expect(customer.getByText(workshopName).first()).toBeVisible()

		// Its unsubscribe link works for anyone who has the e-mail, without signing in, and opens in
		// the recipient's language (English here) also for a reader whose own language is Russian.
		const reader = await person(browser, javaScriptEnabled, baseURL)
		await reader.goto('/?lng=ru')
		await expect(reader.locator('html')).toHaveAttribute('lang', 'ru')
		await reader.goto(linkTo(offer, '/unsubscribe/'))
		await expect(reader.locator('html')).toHaveAttribute('lang', 'en')
		await expect(reader.getByRole('heading', { name: common('unsubscribe.title') })).toBeVisible()
		await expect(reader.getByText(customerEmail.slice(0, 2) + '…@example.com', { exact: false })).toBeVisible()
		await reader.getByRole('button', { name: common('unsubscribe.submit') }).click()
		await expect(reader.getByRole('heading', { name: common('unsubscribe.doneTitle') })).toBeVisible()
		await expect(reader.locator('html')).toHaveAttribute('lang', 'en')

		// The settings page shows the kind turned off; the others stay on.
		await open(customer, '/settings', javaScriptEnabled)
		await expect(customer.getByRole('checkbox', { name: account('settings.emailKinds.offers') })).not.toBeChecked()
		await expect(customer.getByRole('checkbox', { name: account('settings.emailKinds.jobUpdates') })).toBeChecked()
		for (const page of [garage, customer, reader]) await page.context().close()
	})
}

test('a tampered unsubscribe link shows a clear page and changes nothing', async ({ page }) => {
	const response = await page.goto('/unsubscribe/abc.offers.k1.tampered?lng=en')
	expect(response?.status()).toBe(404)
	await expect(page.getByRole('heading', { name: common('unsubscribe.invalidTitle') })).toBeVisible()
	await expect(page.getByRole('button', { name: common('unsubscribe.submit') })).toHaveCount(0)
})

test('a workshop chooses the daily digest for new requests and turns chat e-mails off', async ({ browser, baseURL }) => {
	const garage = await person(browser, false, baseURL)
	await register(garage, 'workshop', uniqueEmail('digest-garage'), { first: 'Päev', last: 'Kokku', workshop: `Digest Garage ${Date.now().toString(36)}` })
	await open(garage, '/settings', false)
	await garage.getByRole('combobox', { name: account('settings.newRequests') }).selectOption('digest')
	await garage.getByRole('checkbox', { name: account('settings.emailKinds.chat') }).uncheck()
	await garage.getByRole('button', { name: account('settings.emailsSubmit') }).click()
	await expectToast(garage, account('settings.emailsSaved'))
	await expect(garage.getByRole('combobox', { name: account('settings.newRequests') })).toHaveValue('digest')
	await expect(garage.getByRole('checkbox', { name: account('settings.emailKinds.chat') })).not.toBeChecked()
	await expect(garage.getByRole('checkbox', { name: account('settings.emailKinds.reviews') })).toBeChecked()
	await garage.context().close()
})

test('the administrator reads every e-mail in each language, and opens one as it looks', async ({ page }) => {
	const admin = dictionary('en', 'admin')
	await page.goto('/?lng=en')
	await loginAsAdmin(page)
	await open(page, '/admin/emails?in=ru', true)
	await expect(page.getByRole('heading', { name: admin('emails.title'), level: 1 })).toBeVisible()
	await expect(page.locator('strong').getByText(/Kask Autoteenindus прислал предложение: 185,50\s€/)).toBeVisible()
	await expect(page.locator('strong').getByText(dictionary('ru', 'auth')('email.welcome.subject'))).toBeVisible()
	const link = page.getByRole('link', { name: admin('emails.openHtml') }).first()
	const href = await link.getAttribute('href')
	expect(href).toMatch(/^\/admin\/emails\/preview\/\w+\/ru$/)
	// The e-mail's own page: its inline styles allowed, and nothing that could run.
	const response = await page.request.get(href!)
	expect(response.status()).toBe(200)
	const policy = response.headers()['content-security-policy']!
	expect(policy).toContain("style-src 'unsafe-inline'")
	expect(policy).toContain("default-src 'none'")
	expect(policy).not.toContain('script-src')
	await page.goto(href!)
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
	await expect(page.getByText(dictionary('ru')('email.footer.unsubscribe'))).toBeVisible()
})
