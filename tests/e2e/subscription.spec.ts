import { type Page } from '@playwright/test'
import { demo, dictionary, expect, expectToast, javaScriptModes, login, open, test, uniqueEmail, waitForEmail } from './fixtures'

const en = dictionary('en', 'billing')
const enAuth = dictionary('en', 'auth')
const enPublic = dictionary('en', 'public')

/**
 * A fresh workshop through the registration form, logged in (never the demo workshop). With
 * JavaScript on, the form is filled once the page is hydrated: typing into it while React hydrates
 * has made React 18 throw "Root did not complete" (error #345) now and then.
 */
async function registerWorkshop(page: Page, javaScriptEnabled: boolean) {
	const email = uniqueEmail('subscriber')
	await open(page, '/register?lng=en&role=workshop', javaScriptEnabled)
	await page.getByLabel(enAuth('register.workshopName')).fill('Tartu Tasuline')
	await page.getByLabel(enAuth('register.companyName')).fill('Tartu Tasuline OÜ')
	await page.getByLabel(enAuth('register.companyId')).fill('1122334455')
	await page.getByLabel(enAuth('register.firstName')).fill('Tiit')
	await page.getByLabel(enAuth('register.lastName')).fill('Tamm')
	await page.getByLabel(enAuth('register.mobile')).fill('+372 5888 1234')
	await page.getByLabel(enAuth('register.email')).fill(email)
	await page.getByLabel(enAuth('register.password'), { exact: true }).fill('tasuline-1')
	await page.getByLabel(enAuth('register.confirmPassword')).fill('tasuline-1')
	await page.getByRole('button', { name: enAuth('register.submitWorkshop') }).click()
	// Registered is logged in (decision 0121).
	await expect(page).toHaveURL(/\/dashboard$/)
	return email
}

const subscribeTo = (page: Page, name: string) => page.getByRole('button', { name: en('packages.subscribeTo').replace('{{name}}', name) })

for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`subscription with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		test('the free package from the start, said so; billing e-mail first, asked for at its field; the paid one through the test provider to an e-mailed invoice', async ({ page }) => {
			test.setTimeout(60_000)
			await registerWorkshop(page, javaScriptEnabled)
			await open(page, '/subscription?lng=en', javaScriptEnabled)
			await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('title'))

			// A new workshop is on the free package: it says so and is not offered again.
			await expect(page.locator('.plan--current .plan__name')).toHaveText('Free')
			await expect(page.locator('.plan--current')).toContainText(en('packages.current'))
			await expect(subscribeTo(page, 'Free')).toHaveCount(0)

			// Without a billing e-mail, subscribing is refused, and the billing e-mail field says why.
			const billing = page.getByRole('textbox', { name: en('billingEmail.label') })
			await subscribeTo(page, 'Pro').click()
			await expect(billing).toHaveAccessibleDescription(new RegExp(en('errors.billingEmailRequired')))
			await expect(page.locator('.field__errors')).toHaveText('Please provide billing email to continue!')
			await expect(page.locator('.form-alert')).toHaveCount(0)
			if (javaScriptEnabled) await expect(billing).toBeFocused()

			// A wrong address is refused next to the field and kept there to correct, a good one saved.
			await billing.fill('not-an-email')
			await page.getByRole('button', { name: en('billingEmail.save') }).click()
			await expect(page.locator('.field__errors')).toHaveText(dictionary('en')('validation.email'))
			await expect(billing).toHaveValue('not-an-email')
			const billingEmail = uniqueEmail('arved')
			await billing.fill(billingEmail)
			// E-invoices wanted (decision 0110): the invoice e-mail carries the XML beside the PDF.
			await page.getByRole('checkbox', { name: en('billingEmail.eInvoice') }).check()
			await page.getByRole('button', { name: en('billingEmail.save') }).click()
			await expectToast(page, en('billingEmail.saved'))
			await expect(page.getByRole('checkbox', { name: en('billingEmail.eInvoice') })).toBeChecked()

			// The paid package: the test provider's page, clearly marked, then the thank-you page.
			await subscribeTo(page, 'Pro').click()
			await expect(page).toHaveURL(/\/subscription\/test-payment\//)
			await expect(page.getByText(en('testPayment.badge'), { exact: true })).toBeVisible()
			await page.getByRole('button', { name: /^Pay / }).click()
			await expect(page).toHaveURL(/\/thank-you$/)
			await expect(page.getByRole('heading', { level: 1 })).toHaveText(enPublic('thankYou.title'))
			await expect(page.getByText(enPublic('thankYou.invoice'))).toBeVisible()

			await open(page, '/subscription?lng=en', javaScriptEnabled)
			const current = page.locator('.current-plan')
			await expect(current).toContainText('Pro')
			await expect(page.locator('.plan--current .plan__name')).toHaveText('Pro')
			await expect(subscribeTo(page, 'Pro')).toHaveCount(0)
			await expect(subscribeTo(page, 'Free')).toHaveCount(1)
			const download = page.getByRole('link', { name: /Download invoice \d+ as PDF/ })
			await expect(download).toHaveCount(1)
			const number = (await download.getAttribute('aria-label'))!.match(/\d+/)![0]
			const pdf = await page.request.get((await download.getAttribute('href'))!)
			expect(pdf.status()).toBe(200)
			expect(pdf.headers()['content-type']).toBe('application/pdf')
			expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-')

			// Beside it the e-invoice: "E-invoice (XML)", downloaded as invoice-{number}.xml, EN 16931 UBL.
			const eInvoice = page.getByRole('link', { name: en('invoices.eInvoiceLabel').replace('{{number}}', number) })
			await expect(eInvoice).toHaveText(en('invoices.eInvoice'))
			await expect(eInvoice).toHaveAttribute('href', `/subscription/invoices/${number}.xml`)
			const [file] = await Promise.all([page.waitForEvent('download'), eInvoice.click()])
			expect(file.suggestedFilename()).toBe(`invoice-${number}.xml`)
			const xml = await page.request.get(`/subscription/invoices/${number}.xml`)
			expect(xml.status()).toBe(200)
			expect(xml.headers()['content-type']).toBe('application/xml; charset=utf-8')
			expect(await xml.text()).toContain('<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>')

			const mail = await waitForEmail({ to: billingEmail, subject: `Invoice ${number}` })
			expect(mail.attachments).toEqual([
				{ filename: `invoice-${number}.pdf`, mimeType: 'application/pdf' },
				{ filename: `invoice-${number}.xml`, mimeType: 'application/xml' },
			])

			// Someone else cannot download them: the PDF is not found, the e-invoice asks to log in.
			await page.context().clearCookies()
			expect((await page.request.get((await download.getAttribute('href'))!)).status()).toBe(404)
			expect((await page.request.get(`/subscription/invoices/${number}.xml`, { maxRedirects: 0 })).status()).toBe(302)
		})

		test("the demo workshop's free package now, and its paid month's invoice as a PDF (issue 32's demo data)", async ({ page }) => {
			await login(page, demo.workshop.email, demo.workshop.password)
			await open(page, '/subscription?lng=en', javaScriptEnabled)
			await expect(page.locator('.current-plan')).toContainText('Free')
			const download = page.getByRole('link', { name: /Download invoice \d+ as PDF/ })
			await expect(download).toBeVisible()
			const pdf = await page.request.get((await download.getAttribute('href'))!)
			expect(pdf.status()).toBe(200)
			expect(pdf.headers()['content-type']).toContain('application/pdf')
		})

		test('cancelling on the test payment page charges nothing', async ({ page }) => {
			await registerWorkshop(page, javaScriptEnabled)
			await open(page, '/subscription?lng=en', javaScriptEnabled)
			await page.getByRole('textbox', { name: en('billingEmail.label') }).fill(uniqueEmail('arved'))
			await page.getByRole('button', { name: en('billingEmail.save') }).click()
			await expectToast(page, en('billingEmail.saved'))
			await subscribeTo(page, 'Pro').click()
			await expect(page).toHaveURL(/\/subscription\/test-payment\//)
			await page.getByRole('button', { name: en('testPayment.cancel') }).click()
			await expect(page).toHaveURL(/\/subscription$/)
			await expectToast(page, en('toast.paymentCancelled'))
			await expect(page.locator('.current-plan')).toContainText('Free')
			await expect(page.getByText(en('invoices.empty'))).toBeVisible()
		})
	})
}
