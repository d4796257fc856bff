/** The routes of spec §2, with an id where the route takes one: shared by the guard tests. */
const id = Buffer.from('00000000-0000-4000-8000-000000000000').toString('base64url')

export const bothRoles = ['/dashboard', '/profile', '/settings']

export const workshopOnly = [
	'/workshop-bid-history',
	'/customer-reviews',
	'/workshop-profile',
	'/workshop-service-history',
	`/workshop-bid-details/${id}`,
	'/subscription',
	`/customer-request-details/${id}`,
]

export const customerOnly = [
	'/my-vehicle',
	'/my-service-history',
	'/my-requests',
	'/add-vehicle',
	`/edit-vehicle/${id}`,
	`/vehicle-details/${id}`,
	`/service-details/${id}`,
	`/request-details/${id}`,
	'/new-service-register',
	`/compaire-offers/${id}`,
	`/work-progress/${id}`,
	`/leave-feedback/${id}`,
]

export const publicRoutes = [
	'/',
	'/login',
	'/register',
	'/forget-password',
	`/reset-password/${id}`,
	'/about',
	'/terms-conditions',
	'/privacy-poicy',
	'/contact-us',
	'/workshop-list',
	// Not in spec §2's table, though its labels name a city list (issue 16).
	'/cities',
	`/workshop-details/${id}`,
	'/thank-you',
]
