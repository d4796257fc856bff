import { type Page } from '@playwright/test'
import { demo, expect, javaScriptModes, login, open, test } from './fixtures'

/**
 * Phones and touch (issue 32, item 13): at 360 px the logo and the header's buttons never cover one
 * another and stay on the screen, every tick box is at least 24×24 px (WCAG 2.2, 2.5.8), and an
 * invoice's download link is in reach without scrolling sideways. The half stars of the review form
 * are measured in final-bill.spec.ts, where a job is there to review.
 */
test.use({ viewport: { width: 360, height: 800 } })

const overlap = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
	a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

async function boxesOf(page: Page, selector: string) {
	return page.locator(selector).evaluateAll((elements) =>
		elements.map((element) => element.getBoundingClientRect()).filter((box) => box.width > 0).map((box) => ({ x: box.x, y: box.y, width: box.width, height: box.height })),
	)
}

for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`touch targets at 360 px with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		test('the header: the logo, the log-in and register buttons and the menu side by side, all on the screen', async ({ page }) => {
			for (const language of ['et', 'en', 'ru']) {
				await open(page, `/login?lng=${language}`, javaScriptEnabled)
				const [logo] = await boxesOf(page, '.site-header .brand')
				const buttons = await boxesOf(page, '.site-header__actions > .button, .site-header__phone-menu .phone-menu__button')
				expect(buttons.length, language).toBeGreaterThanOrEqual(3)
				for (const button of buttons) {
					expect(overlap(logo!, button), `${language}: the logo under a button`).toBe(false)
					expect(button.x + button.width, `${language}: a button past the screen's edge`).toBeLessThanOrEqual(360)
					expect(Math.min(button.width, button.height)).toBeGreaterThanOrEqual(24)
				}
			}
		})

		test("the request form's tick boxes are at least 24×24 px", async ({ page }) => {
			await login(page, demo.customer.email, demo.customer.password)
			await open(page, '/new-service-register?lng=et', javaScriptEnabled)
			const boxes = await boxesOf(page, 'main input[type="checkbox"]')
			expect(boxes.length).toBeGreaterThan(3)
			for (const box of boxes) expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(24)
		})

		test("the subscription page's invoice: its PDF link on the screen, no sideways scrolling", async ({ page }) => {
			await login(page, demo.workshop.email, demo.workshop.password)
			await open(page, '/subscription?lng=et', javaScriptEnabled)
			const links = await boxesOf(page, '.invoice-files a')
			expect(links.length).toBeGreaterThanOrEqual(2)
			for (const link of links) expect(link.x + link.width).toBeLessThanOrEqual(360)
			expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
		})
	})
}
