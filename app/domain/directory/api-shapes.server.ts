import { absoluteUrl } from '~/utils/seo.server'
import { type WorkshopCard, type WorkshopProfile } from './workshops'

/** A workshop as the public JSON API (docs/api.md) shows it: absolute URLs, for partner sites on other origins. */
// The JSON API keeps the shape of spec §7: the response time (issue 15) is the portal's own, for now.
export type ApiWorkshopCard = Omit<WorkshopCard, 'responseMinutes' | 'logoImage'> & { url: string }

export function apiWorkshopCard({ responseMinutes: _responseMinutes, logoImage: _logoImage, ...card }: WorkshopCard): ApiWorkshopCard {
	return { ...card, logo: absoluteUrl(card.logo), url: absoluteUrl(`/workshop-details/${card.id}`)! }
}

export function apiWorkshopProfile({
	responseMinutes: _responseMinutes,
	images: _images,
	...profile
}: WorkshopProfile): Omit<WorkshopProfile, 'responseMinutes' | 'images'> & { url: string } {
	return {
		...profile,
		logo: absoluteUrl(profile.logo),
		photos: profile.photos.map((photo) => ({ url: absoluteUrl(photo.url)!, thumbnail: absoluteUrl(photo.thumbnail)! })),
		warranty: { ...profile.warranty, document: absoluteUrl(profile.warranty.document) },
		url: absoluteUrl(`/workshop-details/${profile.id}`)!,
	}
}
