import { dictionary, expect, test } from './fixtures'

const en = dictionary('en', 'auth')
const enCommon = dictionary('en')

// A person on a slow phone types into the form long before React has hydrated it. The moment a key
// press lands in is a matter of luck, so the page is kept busy with input events from the moment
// it is shown until the router is ready: one of them lands in every phase of hydration.
test('typing into a form while the page hydrates keeps the input and raises no error', async ({ page }) => {
	await page.addInitScript(() => {
		const channel = new MessageChannel()
		channel.port1.onmessage = () => {
			document.querySelector('input[name="lastName"]')?.dispatchEvent(new InputEvent('input', { bubbles: true }))
			const router = (window as unknown as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter
			if (!router?.state.initialized) channel.port2.postMessage(null)
		}
		document.addEventListener('DOMContentLoaded', () => channel.port2.postMessage(null))
	})
	await page.goto('/register?lng=en&role=workshop', { waitUntil: 'domcontentloaded' })
	await page.getByLabel(en('register.firstName')).fill('Al')
	await page.getByLabel(en('register.companyId')).fill('12345')

	await page.waitForFunction(() => (window as unknown as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized)
	await expect(page.getByLabel(en('register.firstName'))).toHaveValue('Al')
	await expect(page.getByLabel(en('register.companyId'))).toHaveValue('12345')
	// The hydrated form answers: the errors come back next to their fields, the input kept.
	await page.getByRole('button', { name: en('register.submitWorkshop') }).click()
	const errorOf = (label: string) => page.locator('.field').filter({ has: page.getByLabel(label) }).locator('.field__errors')
	await expect(errorOf(en('register.firstName'))).toHaveText(enCommon('validation.min3'))
	await expect(page.getByLabel(en('register.companyId'))).toHaveValue('12345')
})
