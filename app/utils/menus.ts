import { type IconName } from '~/components/icon'
import { type Role } from './route-access'

/** The side menu of the signed-in shell per role (spec §2), plus settings for everyone. */
export type MenuItem = { to: string; key: string; icon: IconName }

/** Every entry of the side menus, once; a role's menu lists the ones it shows, in order. */
const entries = {
	dashboard: { to: '/dashboard', key: 'account:menu.dashboard', icon: 'home' },
	profile: { to: '/profile', key: 'account:menu.profile', icon: 'user' },
	settings: { to: '/settings', key: 'account:menu.settings', icon: 'settings' },
	workshopList: { to: '/workshop-list', key: 'account:menu.workshopList', icon: 'search' },
	myVehicles: { to: '/my-vehicle', key: 'account:menu.myVehicles', icon: 'car' },
	newService: { to: '/new-service-register', key: 'account:menu.newService', icon: 'plus' },
	myRequests: { to: '/my-requests', key: 'account:menu.myRequests', icon: 'list' },
	serviceHistory: { to: '/my-service-history', key: 'account:menu.serviceHistory', icon: 'clock' },
	requestsToBid: { to: '/customer-requests', key: 'account:menu.requestsToBid', icon: 'search' },
	bidHistory: { to: '/workshop-bid-history', key: 'account:menu.bidHistory', icon: 'list' },
	customerReviews: { to: '/customer-reviews', key: 'account:menu.customerReviews', icon: 'star' },
	workshopCalendar: { to: '/workshop-calendar', key: 'booking:calendar.menu', icon: 'clock' },
	workshopPrices: { to: '/workshop-prices', key: 'workshop:priceList.menu', icon: 'card' },
	workshopInsights: { to: '/workshop-insights', key: 'workshop:insights.menu', icon: 'chart' },
	workshopProfile: { to: '/workshop-profile', key: 'account:menu.workshopProfile', icon: 'wrench' },
	subscription: { to: '/subscription', key: 'account:menu.subscription', icon: 'card' },
	admin: { to: '/admin', key: 'account:menu.admin', icon: 'shield' },
} satisfies Record<string, MenuItem>

const { dashboard, profile, settings, workshopList } = entries

export const menus: Record<Role, MenuItem[]> = {
	customer: [dashboard, entries.myRequests, entries.newService, entries.myVehicles, entries.serviceHistory, profile, workshopList, settings],
	workshop: [dashboard, entries.requestsToBid, entries.bidHistory, entries.workshopCalendar, entries.workshopPrices, entries.customerReviews, entries.workshopInsights, profile, entries.workshopProfile, workshopList, entries.subscription, settings],
	admin: [dashboard, entries.admin, profile, settings],
}

/** The public pages' links: the header names the first ones, the footer all of them. */
export const publicLinks = [
	{ to: '/workshop-list', key: 'nav.workshops', inHeader: true },
	{ to: '/cities', key: 'nav.cities', inHeader: false },
	{ to: '/about', key: 'nav.about', inHeader: true },
	{ to: '/contact-us', key: 'nav.contact', inHeader: true },
	{ to: '/terms-conditions', key: 'nav.terms', inHeader: false },
	{ to: '/privacy-poicy', key: 'nav.privacy', inHeader: false },
] as const
