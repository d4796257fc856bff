import { type Page } from '@playwright/test'
import { bothRoles, customerOnly, publicRoutes, workshopOnly } from '../support/spec-routes'
import { demo, expect, login, loginAsAdmin, test } from './fixtures'
import { kindOf, notPages, pathKind, unseenLinks } from './walk'

/**
 * No page is wider than a phone's screen (issue 16). For each role, the test follows every link
 * it finds from the dashboard and the menus, visiting each kind of page once (a request's page
 * once, not every request), in all three languages, and fails with the pages and the elements
 * that stick out. Without JavaScript, so the widths are those of the server's HTML, which is what
 * a phone shows first; the dialogs and the chat are measured with JavaScript in their own tests.
 */
const WIDTH = Number(process.env.PHONE_WIDTH ?? 360)
const languages = ['et', 'en', 'ru'] as const

async function overflowOf(page: Page) {
	return page.evaluate((width) => {
		if (document.documentElement.scrollWidth <= width) return null
		// The outermost elements that reach past the right edge, named so a person can find them.
		const name = (element: Element) =>
			element.tagName.toLowerCase() + (element.id ? `#${element.id}` : '') + [...element.classList].map((c) => `.${c}`).join('')
		const sticking = [...document.body.querySelectorAll('*')].filter((element) => {
			const box = element.getBoundingClientRect()
			if (box.width === 0 || box.right <= width + 1) return false
			const parent = element.parentElement
			return !parent || parent.getBoundingClientRect().right <= width + 1
		})
		return { width: document.documentElement.scrollWidth, elements: sticking.slice(0, 5).map((element) => `${name(element.parentElement!)} > ${name(element)}`) }
	}, WIDTH)
}

async function crawl(page: Page, language: (typeof languages)[number], starts: string[]) {
	const seen = new Set<string>()
	const queue = [...starts]
	const problems: string[] = []
	const visited = new Set<string>()
	while (queue.length > 0) {
		const path = queue.shift()!
		const kind = kindOf(path)
		if (seen.has(kind) || notPages.some((pattern) => pattern.test(path))) continue
		seen.add(kind)
		const response = await page.goto(`${path}${path.includes('?') ? '&' : '?'}lng=${language}`)
		if (!response || !response.headers()['content-type']?.includes('text/html')) continue
		// An error page is no page of the walk: it is reported, and the route does not count as reached.
		if (response.status() >= 400) {
			problems.push(`${path} (${language}) answered ${response.status()}`)
			continue
		}
		visited.add(pathKind(new URL(page.url()).pathname))
		const overflow = await overflowOf(page)
		if (overflow) problems.push(`${path} (${language}) is ${overflow.width} px wide: ${overflow.elements.join(', ')}`)
		queue.push(...(await unseenLinks(page, seen)))
	}
	return { problems, visited }
}

test.use({ javaScriptEnabled: false, viewport: { width: WIDTH, height: 780 } })
// Widths do not depend on the database: the walk runs once, on the embedded one, to keep CI short.
test.skip(Boolean(process.env.TEST_DATABASE_URL), 'page widths are the same on either database')

// Every route of spec §2 a role can reach by a link (a reset link comes by e-mail, the thank-you page after a message).
const people = [
	{
		role: 'visitor',
		starts: ['/', '/workshop-list', '/cities', '/login', '/register', '/register?role=workshop', '/forget-password', '/contact-us', '/about'],
		pages: publicRoutes.filter((path) => !path.startsWith('/reset-password/') && path !== '/thank-you'),
	},
	{
		role: 'customer',
		who: demo.customer,
		// The work in progress first: the walk opens one request's page, and only that one links to /work-progress.
		starts: ['/my-requests?status=in_progress', '/dashboard', '/my-requests', '/my-service-history', '/my-vehicle', '/notifications'],
		pages: [...bothRoles, ...customerOnly],
	},
	{
		role: 'workshop',
		who: demo.workshop,
		starts: ['/dashboard', '/customer-requests', '/workshop-bid-history', '/workshop-service-history', '/notifications', '/workshop-calendar'],
		pages: [...bothRoles, ...workshopOnly],
	},
	{ role: 'admin', who: demo.admin, starts: ['/dashboard', '/admin'], pages: [...bothRoles, '/admin', '/admin/users'] },
] as const

for (const person of people) {
	for (const language of languages) {
		test(`every page fits a ${WIDTH} px screen: ${person.role}, ${language}`, async ({ page }) => {
			test.setTimeout(120_000)
			// The administrator signs in as one must: the password, then the second factor (decision 0156).
			if ('who' in person) await (person.who === demo.admin ? loginAsAdmin(page) : login(page, person.who.email, person.who.password))
			const { problems, visited } = await crawl(page, language, [...person.starts])
			// The walk reached every page of the role's route list (a broken link or crawl would not).
			expect(person.pages.map(pathKind).filter((kind) => !visited.has(kind)), 'pages the walk did not reach').toEqual([])
			expect(problems, 'pages wider than the screen').toEqual([])
		})
	}
}
