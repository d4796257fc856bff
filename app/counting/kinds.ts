/**
 * What `daily_counts` counts (issue 37, decision 0152). A kind counted per workshop has its
 * `workshop_id`; one that came through a partner's key has its `partner_id` too.
 */
export const countKinds = [
	/** A workshop's page opened on the portal. */
	'profile-view',
	/** A workshop's details opened in a widget. */
	'widget-profile-view',
	/** A workshop shown in a list of search results (the portal's list, a widget's, the API's). */
	'search-appearance',
	/** A search (a list page or list call) made, per partner. */
	'search',
	/** A widget shown on a partner's page, per partner. */
	'widget-view',
	/** A message sent through the contact form or widget, per partner. */
	'contact-message',
	/** A request created from the "ask for an offer" widget (counted when its link is opened). */
	'widget-request',
] as const

export type CountKind = (typeof countKinds)[number]

/** One thing that happened: its kind, and the workshop and partner it counts for, where it does. */
export type CountEvent = { kind: CountKind; workshopId?: string | null; partnerId?: string | null }
