import { type IconName } from '~/components/icon'
import { type Role } from './route-access'

/** The side menu of the signed-in shell per role (spec §2), plus settings for everyone. */
export type MenuItem = { to: string; key: string; icon: IconName }

export const menus: Record<Role, MenuItem[]> = {
	customer: [
		{ to: '/dashboard', key: 'account:menu.dashboard', icon: 'home' },
		{ to: '/profile', key: 'account:menu.profile', icon: 'user' },
		{ to: '/my-vehicle', key: 'account:menu.myVehicles', icon: 'car' },
		{ to: '/new-service-register', key: 'account:menu.newService', icon: 'plus' },
		{ to: '/workshop-list', key: 'account:menu.workshopList', icon: 'search' },
		{ to: '/settings', key: 'account:menu.settings', icon: 'settings' },
	],
	workshop: [
		{ to: '/dashboard', key: 'account:menu.dashboard', icon: 'home' },
		{ to: '/customer-requests', key: 'account:menu.requestsToBid', icon: 'search' },
		{ to: '/workshop-bid-history', key: 'account:menu.bidHistory', icon: 'list' },
		{ to: '/customer-reviews', key: 'account:menu.customerReviews', icon: 'star' },
		{ to: '/profile', key: 'account:menu.profile', icon: 'user' },
		{ to: '/workshop-profile', key: 'account:menu.workshopProfile', icon: 'wrench' },
		{ to: '/workshop-list', key: 'account:menu.workshopList', icon: 'search' },
		{ to: '/subscription', key: 'account:menu.subscription', icon: 'card' },
		{ to: '/settings', key: 'account:menu.settings', icon: 'settings' },
	],
	admin: [
		{ to: '/dashboard', key: 'account:menu.dashboard', icon: 'home' },
		{ to: '/admin', key: 'account:menu.admin', icon: 'shield' },
		{ to: '/profile', key: 'account:menu.profile', icon: 'user' },
		{ to: '/settings', key: 'account:menu.settings', icon: 'settings' },
	],
}
