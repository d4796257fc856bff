import { requestFormPath } from '~/domain/booking/free-times'
import { absoluteUrl } from '~/utils/seo.server'
import { withRedirectTo } from '~/utils/safe-redirect'
import { type WorkshopCard, type WorkshopProfile } from './workshops'

/** A workshop as the public JSON API (docs/api.md) shows it: absolute URLs, for partner sites on other origins. */
// The JSON API keeps the shape of spec §7: the response time (issue 15) is the portal's own, for now.
export type ApiWorkshopCard = Omit<WorkshopCard, 'responseMinutes' | 'logoImage' | 'nextFreeAt'> & { url: string; nextFree: ApiFreeTime | null }

/**
 * A free start time as a link (issue 33): the request form addressed to the workshop with the time
 * filled in, by way of the log-in page, which sends a signed-in visitor straight on (a partner's
 * page cannot know whether its reader is signed in on the portal).
 */
export type ApiFreeTime = { startsAt: string; url: string }
function apiFreeTime(workshopPublicId: string, startsAt: string): ApiFreeTime {
	return { startsAt, url: absoluteUrl(withRedirectTo('/login', requestFormPath(workshopPublicId, startsAt)))! }
}

export function apiWorkshopCard({ responseMinutes: _responseMinutes, logoImage: _logoImage, nextFreeAt, ...card }: WorkshopCard): ApiWorkshopCard {
	return {
		...card,
		logo: absoluteUrl(card.logo),
		url: absoluteUrl(`/workshop-details/${card.id}`)!,
		nextFree: nextFreeAt ? apiFreeTime(card.id, nextFreeAt) : null,
	}
}

export type ApiWorkshopProfile = Omit<WorkshopProfile, 'responseMinutes' | 'images' | 'nextFreeTimes'> & { url: string; nextFreeTimes: ApiFreeTime[] }

export function apiWorkshopProfile({ responseMinutes: _responseMinutes, images: _images, ...profile }: WorkshopProfile): ApiWorkshopProfile {
	return {
		...profile,
		logo: absoluteUrl(profile.logo),
		photos: profile.photos.map((photo) => ({ url: absoluteUrl(photo.url)!, thumbnail: absoluteUrl(photo.thumbnail)! })),
		nextFreeTimes: profile.nextFreeTimes.map((startsAt) => apiFreeTime(profile.id, startsAt)),
		warranty: { ...profile.warranty, document: absoluteUrl(profile.warranty.document) },
		url: absoluteUrl(`/workshop-details/${profile.id}`)!,
	}
}
