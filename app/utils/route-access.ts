/**
 * Who may open which page: the route lists of spec §2 in one table. The root loader enforces it
 * for every path (so a page that is not built yet is guarded too), each route's own loader and
 * action call requireUser again, and the side menus are built from the same roles.
 */
export type Role = 'customer' | 'workshop' | 'admin'

type Rule = {
	path: string
	prefix?: boolean
	roles: readonly Role[]
	/**
	 * Signed in with another role: 404, as for another owner's, instead of the dashboard with "no
	 * permission" (issue 20: a vehicle's pages are "not found" for anyone but its owner, a workshop too).
	 */
	othersNotFound?: boolean
	/**
	 * false: an administrator whose session has no second factor may open it (the step-up page
	 * itself, decision 0156); every other administrator's page sends them there first.
	 */
	secondFactor?: false
}

const signedIn: readonly Role[] = ['customer', 'workshop', 'admin']

export const routeRules: readonly Rule[] = [
	// Both roles (and the administrator, who has an account too).
	{ path: '/dashboard', roles: signedIn },
	{ path: '/profile', roles: signedIn },
	{ path: '/settings', roles: signedIn },
	// "Download my data" (issue 21): the ZIP, and a large one made in the background.
	{ path: '/settings/', prefix: true, roles: signedIn },
	{ path: '/notifications', roles: signedIn },
	{ path: '/notifications/', prefix: true, roles: signedIn },
	{ path: '/chat/', prefix: true, roles: signedIn },
	// Reporting a review (issue 19): anyone signed in.
	{ path: '/report-review/', prefix: true, roles: signedIn },
	// Workshop only.
	{ path: '/workshop-bid-history', roles: ['workshop'] },
	{ path: '/customer-reviews', roles: ['workshop'] },
	{ path: '/workshop-profile', roles: ['workshop'] },
	{ path: '/workshop-service-history', roles: ['workshop'] },
	{ path: '/workshop-bid-details/', prefix: true, roles: ['workshop'] },
	{ path: '/subscription', roles: ['workshop'] },
	// The workshop's agenda and calendar settings (issue 33); its feed, /workshop-calendar/feed/…, has its own secret.
	{ path: '/workshop-calendar', roles: ['workshop'] },
	// The workshop's price list (issue 35).
	{ path: '/workshop-prices', roles: ['workshop'] },
	// The workshop's growth page (issue 37).
	{ path: '/workshop-insights', roles: ['workshop'] },
	// An invoice's e-invoice (decision 0110): its workshop and administrators; anyone else 404.
	{ path: '/subscription/invoices/', prefix: true, roles: ['workshop', 'admin'], othersNotFound: true },
	// The test provider's payment page and the return from Stripe Checkout (docs/decisions/0060).
	{ path: '/subscription/', prefix: true, roles: ['workshop'] },
	{ path: '/customer-request-details/', prefix: true, roles: ['workshop'] },
	// Not in spec §2: the list of open requests a workshop can bid on (docs/decisions/0031).
	{ path: '/customer-requests', roles: ['workshop'] },
	// Customer only.
	{ path: '/my-vehicle', roles: ['customer'] },
	{ path: '/my-service-history', roles: ['customer'] },
	{ path: '/my-requests', roles: ['customer'] },
	{ path: '/add-vehicle', roles: ['customer'] },
	// A buyer takes over a car with its seller's transfer code (issue 32).
	{ path: '/claim-vehicle', roles: ['customer'] },
	{ path: '/edit-vehicle/', prefix: true, roles: ['customer'], othersNotFound: true },
	{ path: '/vehicle-details/', prefix: true, roles: ['customer'], othersNotFound: true },
	{ path: '/service-details/', prefix: true, roles: ['customer'] },
	{ path: '/request-details/', prefix: true, roles: ['customer'] },
	{ path: '/new-service-register', roles: ['customer'] },
	{ path: '/compaire-offers/', prefix: true, roles: ['customer'] },
	{ path: '/work-progress/', prefix: true, roles: ['customer'] },
	{ path: '/leave-feedback/', prefix: true, roles: ['customer'] },
	// The administration area; its step-up page first, open without a second factor (decision 0156).
	{ path: '/admin/verify', roles: ['admin'], secondFactor: false },
	{ path: '/admin', roles: ['admin'] },
	{ path: '/admin/', prefix: true, roles: ['admin'] },
]

/** The rule of a path, or null for a public path. The JSON API has its own checks. */
export function ruleFor(pathname: string): Rule | null {
	const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
	if (path.startsWith('/admin/api/') || path === '/admin/api') return null
	for (const rule of routeRules) {
		// A prefix rule covers its detail pages and the bare path without an id.
		const matches = rule.prefix ? path.startsWith(rule.path) || path === rule.path.slice(0, -1) : path === rule.path
		if (matches) return rule
	}
	return null
}

/** The roles allowed on a path, or null for a public path. */
export function rolesFor(pathname: string): readonly Role[] | null {
	return ruleFor(pathname)?.roles ?? null
}

/** The page an administrator without a second factor is sent to (decision 0156): open to them, unlike the rest of /admin. */
export const STEP_UP_PATH = '/admin/verify'

/** The pages that redirect a signed-in visitor to /dashboard (spec §2). */
export const anonymousOnlyPaths = ['/login', '/register', '/forget-password'] as const
