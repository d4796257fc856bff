import { decodeId, isUuid } from '~/utils/public-id'
import { type CountEvent } from './kinds'

/**
 * What each place counts (decision 0154), as lists of events for `countRequestEvents`: pure, so the
 * rules are tested without a server. Workshops come as the public ids the cards and pages carry.
 */

/**
 * The UUID behind a card's public id (base64url of its 36 characters, app/utils/public-id.ts), read
 * by Buffer: a list page reads a dozen, and `decodeId`'s portable decoder costs several µs each.
 */
function workshopIdOf(publicId: string): string | null {
	if (publicId.length === 48) {
		const text = Buffer.from(publicId, 'base64url').toString('latin1')
		if (isUuid(text)) return text
	}
	return decodeId(publicId)
}

type Partner = { id: string } | null | undefined

/**
 * A page of search results shown (the portal's list, the list call): one appearance for each
 * workshop on it, once however many of its blocks show it (the list and the paid block above it),
 * and with a partner's key one search too.
 */
export function searchEvents(shownPublicIds: Iterable<string>, partner?: Partner): CountEvent[] {
	const partnerId = partner?.id ?? null
	const workshopIds = new Set<string>()
	for (const publicId of shownPublicIds) {
		const workshopId = workshopIdOf(publicId)
		if (workshopId) workshopIds.add(workshopId)
	}
	const events: CountEvent[] = [...workshopIds].map((workshopId) => ({ kind: 'search-appearance', workshopId, partnerId }))
	if (partnerId) events.push({ kind: 'search', partnerId })
	return events
}

/**
 * A workshop's page opened: on the portal (`profile-view`) or in a details widget
 * (`widget-profile-view`, with its partner). Only its first page of reviews: turning to the next
 * one is the same visit. A details widget with a key is also a widget shown on the partner's page.
 */
export function profileEvents(where: 'portal' | 'widget', workshopId: string, reviewPage: number, partner?: Partner): CountEvent[] {
	if (reviewPage !== 1) return []
	if (where === 'portal') return [{ kind: 'profile-view', workshopId }]
	const partnerId = partner?.id ?? null
	return [{ kind: 'widget-profile-view', workshopId, partnerId }, ...(partnerId ? [{ kind: 'widget-view' as const, partnerId }] : [])]
}

/** A list widget shown on a partner's page: it asks for its filters once, when it starts. */
export function listWidgetEvents(partner?: Partner): CountEvent[] {
	return partner ? [{ kind: 'widget-view', partnerId: partner.id }] : []
}

/** A message sent through a partner's contact widget (or any call with its key). */
export function contactEvents(partner?: Partner): CountEvent[] {
	return partner ? [{ kind: 'contact-message', partnerId: partner.id }] : []
}
