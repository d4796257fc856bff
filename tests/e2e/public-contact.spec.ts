import { dictionary, expect, expectToast, javaScriptModes, open, test, waitForEmail } from './fixtures'

// The contact form allows 5 messages an hour from one address, and every test here comes from
// 127.0.0.1: these tests send 4 valid messages in all.
for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`the contact form with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		for (const language of ['et', 'en'] as const) {
			test(`sends a message and says thank you in ${language}`, async ({ page }) => {
				const t = dictionary(language, 'public')
				const name = `Tester ${language} ${javaScriptEnabled ? 'js' : 'nojs'} ${Date.now()}`
				await open(page, `/contact-us?lng=${language}`, javaScriptEnabled)
				await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('contact.title'))
				await page.getByRole('textbox', { name: t('contact.name') }).fill(name)
				await page.getByRole('textbox', { name: t('contact.emailAddress') }).fill('tester@example.com')
				await page.getByRole('textbox', { name: t('contact.message') }).fill('Kas saab ka haagist hooldada?')
				await page.getByRole('button', { name: t('contact.send') }).click()
				await expectToast(page, t('contact.thanks'))
				// The form is empty again.
				await expect(page.getByRole('textbox', { name: t('contact.name') })).toHaveValue('')

				// The site e-mail gets it, through the outbox.
				const mail = await waitForEmail({ to: 'info@autohub.example', subject: new RegExp(name) })
				expect(mail.text).toContain('tester@example.com')
				expect(mail.text).toContain('Kas saab ka haagist hooldada?')
			})

			test(`shows errors next to the fields in ${language} and keeps what was typed`, async ({ page }) => {
				const t = dictionary(language, 'public')
				const common = dictionary(language)
				await open(page, `/contact-us?lng=${language}`, javaScriptEnabled)
				await page.getByRole('textbox', { name: t('contact.name') }).fill('Mari Tamm')
				// Valid to the browser, not to the portal: the message comes from the server in the page's language.
				await page.getByRole('textbox', { name: t('contact.emailAddress') }).fill('mari@example')
				await page.getByRole('button', { name: t('contact.send') }).click()
				const email = page.getByRole('textbox', { name: t('contact.emailAddress') })
				await expect(email).toHaveAttribute('aria-invalid', 'true')
				await expect(page.getByText(common('validation.email'))).toBeVisible()
				await expect(page.getByText(common('validation.required'))).toBeVisible()
				await expect(page.getByRole('textbox', { name: t('contact.name') })).toHaveValue('Mari Tamm')
				await expect(email).toHaveValue('mari@example')
				await expect(page.getByRole('textbox', { name: t('contact.message') })).toHaveAttribute('aria-invalid', 'true')
			})
		}
	})
}

test('the contact page shows the site’s address, e-mail and phone', async ({ page }) => {
	const t = dictionary('en', 'public')
	await open(page, '/contact-us?lng=en', true)
	const details = page.getByRole('complementary', { name: t('contact.detailsTitle') })
	await expect(details).toContainText('Narva Road 7, 10117 Tallinn, Estonia')
	await expect(details.getByRole('link', { name: 'info@autohub.example' })).toHaveAttribute('href', 'mailto:info@autohub.example')
	await expect(details.getByRole('link', { name: '+372 600 1234' })).toBeVisible()
})
