import { type JsonLdThing } from '~/utils/json-ld'
import { absoluteUrl, pageUrl } from '~/utils/seo.server'
import { type OpeningHours, type PublicReview, type WorkshopProfile } from './workshops'

/**
 * What search engines read of a workshop's page (issue 16): a schema.org AutoRepair with what the
 * page shows anyway: name, address, hours, telephone, the rating and the newest reviews, with the
 * reviewer named as the page names them ("Mari T."). Addresses are absolute (APP_URL).
 */
export const SEARCH_DATA_REVIEWS = 5

const weekdays = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']

function hoursSpecification(days: string[], hours: OpeningHours) {
	return hours ? [{ '@type': 'OpeningHoursSpecification', dayOfWeek: days, opens: hours.opens, closes: hours.closes }] : []
}

export function workshopSearchData(workshop: WorkshopProfile, newestReviews: PublicReview[]): JsonLdThing {
	const images = [...workshop.photos.map((photo) => absoluteUrl(photo.url)), ...(workshop.logo ? [absoluteUrl(workshop.logo)] : [])]
	// JSON.stringify leaves out what is undefined: a field the workshop has not given is not claimed.
	return {
		'@type': 'AutoRepair',
		name: workshop.name,
		url: pageUrl(`/workshop-details/${workshop.id}`, '', null),
		image: images.length ? images : undefined,
		logo: absoluteUrl(workshop.logo) ?? undefined,
		telephone: workshop.phone || undefined,
		email: workshop.email || undefined,
		sameAs: workshop.website ?? undefined,
		address: {
			'@type': 'PostalAddress',
			streetAddress: workshop.address.street || undefined,
			postalCode: workshop.address.zipCode || undefined,
			addressLocality: workshop.address.city ?? undefined,
			addressRegion: workshop.address.state || undefined,
			addressCountry: 'EE',
		},
		openingHoursSpecification: [
			...hoursSpecification(weekdays, workshop.openingHours.weekdays),
			...hoursSpecification(['Saturday'], workshop.openingHours.saturday),
			...hoursSpecification(['Sunday'], workshop.openingHours.sunday),
		],
		// Search engines refuse a rating with no reviews behind it.
		aggregateRating:
			workshop.reviewCount > 0
				? { '@type': 'AggregateRating', ratingValue: workshop.ratingAverage, reviewCount: workshop.reviewCount, bestRating: 5, worstRating: 0.5 }
				: undefined,
		review: newestReviews.length
			? newestReviews.slice(0, SEARCH_DATA_REVIEWS).map((review) => ({
					'@type': 'Review',
					author: { '@type': 'Person', name: review.reviewer },
					datePublished: review.createdAt.slice(0, 10),
					name: review.title || undefined,
					reviewBody: review.body,
					reviewRating: { '@type': 'Rating', ratingValue: review.rating, bestRating: 5, worstRating: 0.5 },
				}))
			: undefined,
	}
}
