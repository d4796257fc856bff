/**
 * Where ads may appear (issue 32, decision 0129): a route says so in its handle, and the layouts
 * that draw the ad areas ask the matched routes, instead of each page or layout deciding:
 *
 *     export const handle: AdsHandle = { ads: false }
 *
 * The deepest route that says anything decides, so a layout allows ads for its pages and a page
 * (or a sub-layout, like the administration) refuses them; where no route says anything, there
 * are none. No ads on the administration, payment and settings pages, the sign-in forms, or the
 * forms of the four steps (the request, the offer, the selection, the review).
 */
export type AdsHandle = { ads?: boolean }

export function adsAllowed(matches: ReadonlyArray<{ handle?: unknown }>): boolean {
	for (let i = matches.length - 1; i >= 0; i--) {
		const handle = matches[i]?.handle
		if (handle && typeof handle === 'object' && 'ads' in handle && typeof handle.ads === 'boolean') return handle.ads
	}
	return false
}
