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
			const router = (window as unknown as { __reactRouterDataRouter?: { state: { initialized: boolean } } }).__reactRouterDataRouter
			if (!router?.state.initialized) channel.port2.postMessage(null)
		}
		document.addEventListener('DOMContentLoaded', () => channel.port2.postMessage(null))
	})
	await page.goto('/register?lng=en&role=workshop', { waitUntil: 'domcontentloaded' })
	await page.getByLabel(en('register.firstName')).fill('Al')
	await page.getByLabel(en('register.companyId')).fill('12345')

	await page.waitForFunction(() => (window as unknown as { __reactRouterDataRouter?: { state: { initialized: boolean } } }).__reactRouterDataRouter?.state.initialized)
	await expect(page.getByLabel(en('register.firstName'))).toHaveValue('Al')
	await expect(page.getByLabel(en('register.companyId'))).toHaveValue('12345')
	// The hydrated form answers: the errors come back next to their fields, the input kept.
	await page.getByRole('button', { name: en('register.submitWorkshop') }).click()
	const errorOf = (label: string) => page.locator('.field').filter({ has: page.getByLabel(label) }).locator('.field__errors')
	await expect(errorOf(en('register.firstName'))).toHaveText(enCommon('validation.min3'))
	await expect(page.getByLabel(en('register.companyId'))).toHaveValue('12345')
})

// An error no page catches shows the root's error page: a whole new document element tree, and so
// is the page after it. The browser's runtime puts each new <html> in the old one's place, every
// time, and runs none of its scripts again (the fixture fails the test on a CSP refusal).
test('the root error page and the page after it, twice, with JavaScript on: each shows, no browser error', async ({ page, pageProblems }) => {
	const navigate = (to: string) => page.evaluate((path) => (window as unknown as { __reactRouterDataRouter: { navigate: (to: string) => Promise<void> } }).__reactRouterDataRouter.navigate(path), to)
	await page.goto('/about?lng=en')
	await page.waitForFunction(() => (window as unknown as { __reactRouterDataRouter?: { state: { initialized: boolean } } }).__reactRouterDataRouter?.state.initialized)
	const heading = page.getByRole('heading', { level: 1 })
	const about = await heading.textContent()
	for (let round = 0; round < 2; round++) {
		// The page's data cannot be fetched (the network is down): the root loader fails too (another language).
		await page.route('**/*.data*', (route) => route.abort())
		await navigate('/about?lng=ru')
		await expect(heading).toHaveText(enCommon('errors.unexpected'))
		await page.unroute('**/*.data*')
		await navigate('/about?lng=en')
		await expect(heading).toHaveText(about!)
	}
	await expect(page.locator('html')).toHaveCount(1)
	await expect(page.locator('body')).toHaveCount(1)
	// The aborted fetches are the test's own doing.
	pageProblems.splice(0, pageProblems.length, ...pageProblems.filter((problem) => !/ERR_FAILED|network error|Failed to fetch/i.test(problem)))
})
