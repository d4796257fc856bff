/**
 * The public workshop directory: the shapes the server answers with and the helpers the pages,
 * the API and the widgets share. Filters use reference-list codes
 * (`?city=tallinn&service=tyres&brand=toyota`), so a list can be shared as a link.
 * No zod here, so the pages' browser code stays small: the query's schema is in ./workshop-query.ts.
 */
import { type ImageSource } from '~/uploads/upload-url'

/** A reviewer as the site names them: first name and the last name's initial ("Mari T."). */
export function reviewerName(firstName: string, lastName: string | null | undefined): string {
	return [firstName, lastName ? `${lastName.slice(0, 1)}.` : ''].filter(Boolean).join(' ')
}

export const WORKSHOP_PAGE_SIZE = 9
export const REVIEW_PAGE_SIZE = 5
/**
 * "Best rated" ranks a workshop by its average only from this many reviews on: below it, one
 * happy customer's 5 stars would outrank a workshop rated 4.9 by a hundred. Fewer reviews sort
 * after, by the same rule among themselves.
 */
export const MIN_RATED_REVIEWS = 3
/** At most this many paid workshops in the ad block above the list (the portal, the API, the widget). */
export const PROMOTED_LIMIT = 3
/** Deeper pages than this are refused: nobody reads them, and offsets get slow. */
export const MAX_PAGE = 1000

/**
 * The list's sorts; each sorts by what it names and never by payment (issue 32, decision 0128):
 * - rating (the default): workshops with at least `MIN_RATED_REVIEWS` reviews first, then the
 *   average rating, then the number of reviews, then the id (stable pages);
 * - reviews: the number of reviews, then the average rating;
 * - name: alphabetical.
 * Paid placement is a separate block labelled as an ad (`promotedWorkshops`), never a rank.
 */
export const workshopSorts = ['rating', 'reviews', 'name'] as const
export type WorkshopSort = (typeof workshopSorts)[number]

/** The list's query as the server understands it (./workshop-query.ts parses it). */
export type WorkshopListQuery = {
	q?: string
	city?: string
	service?: string
	brand?: string
	sort: WorkshopSort
	page: number
	/** `week`: only workshops with a free time before the end of this Tallinn week (issue 33). */
	free?: WorkshopFreeFilter
}

/** The directory's "free" filter (`?free=week`): next_free_at between now and Sunday 24:00 in Tallinn. */
export const workshopFreeFilters = ['week'] as const
export type WorkshopFreeFilter = (typeof workshopFreeFilters)[number]

/** The query as URL parameters, defaults left out (for links, pagination and the canonical URL). */
export function workshopListParams(query: Partial<WorkshopListQuery>): URLSearchParams {
	const params = new URLSearchParams()
	if (query.q) params.set('q', query.q)
	if (query.city) params.set('city', query.city)
	if (query.service) params.set('service', query.service)
	if (query.brand) params.set('brand', query.brand)
	if (query.free) params.set('free', query.free)
	if (query.sort && query.sort !== 'rating') params.set('sort', query.sort)
	if (query.page && query.page > 1) params.set('page', String(query.page))
	return params
}

/** A city's page: the directory filtered on the city alone (/cities, the sitemap, breadcrumbs link there). */
export function cityPagePath(city: string) {
	return `/workshop-list?${workshopListParams({ city })}`
}

/** A query that is a city's page (its own title and description): a city, and no other filter. */
export function isCityPage(query: Partial<WorkshopListQuery>) {
	return Boolean(query.city) && !query.q && !query.service && !query.brand && !query.free
}

export type ReferenceOption = { code: string; name: string }
export type FilterOptions = { cities: ReferenceOption[]; services: ReferenceOption[]; brands: ReferenceOption[] }

/** One card of the list. URLs are paths on the portal (the API makes them absolute). */
export type WorkshopCard = {
	/** The workshop's public id (base64url of its UUID), as in /workshop-details/{id}. */
	id: string
	name: string
	city: string | null
	logo: string | null
	/** The logo at the size it is shown (issue 18); the portal's own, left out of the API. */
	logoImage: ImageSource | null
	ratingAverage: number
	reviewCount: number
	/** Median minutes from request to offer over 90 days; null below five offers (issue 15). */
	responseMinutes: number | null
	/** Its main services, in the reader's language. */
	services: string[]
	/**
	 * On the paid package. It changes no sort: a paid workshop is shown, besides its place in the
	 * list, in the block above it labelled as an ad (decision 0128).
	 */
	featured: boolean
	/** Its next free start for a typical job (ISO), from `workshops.next_free_at`; null when none or no longer ahead (issue 33). */
	nextFreeAt: string | null
}

export type Paged<T> = {
	items: T[]
	page: number
	pageSize: number
	total: number
	totalPages: number
	/** True when `total` is a lower bound: a broad name search is counted only up to TEXT_COUNT_CAP. */
	capped: boolean
}

export type OpeningHours = { opens: string; closes: string } | null

export type WorkshopProfile = {
	id: string
	name: string
	companyName: string
	featured: boolean
	logo: string | null
	photos: Array<{ url: string; thumbnail: string }>
	/** The logo and photos at the size they are shown (issue 18); the portal's own, left out of the API. */
	images: { logo: ImageSource | null; photos: Array<ImageSource | null> }
	marketingText: string
	/** `cityCode` names the city in the directory's filter (`/workshop-list?city=`). */
	address: { street: string; zipCode: string; city: string | null; cityCode: string | null; state: string }
	phone: string
	email: string
	website: string | null
	foundedYear: number | null
	installersCount: number | null
	carBrands: string[]
	services: string[]
	additionalServices: string
	spareParts: string[]
	paymentMethods: string[]
	openingHours: { weekdays: OpeningHours; saturday: OpeningHours; sunday: OpeningHours }
	/** Its next free start times for a typical job, from its calendar (issue 33): ISO, soonest first. */
	nextFreeTimes: string[]
	warranty: { workKm: number | null; partsMonths: number | null; info: string; document: string | null }
	ratingAverage: number
	reviewCount: number
	/** Median minutes from request to offer over 90 days; null below five offers. */
	responseMinutes: number | null
	/** Its jobs of the last 12 months finished at or below the binding total (issue 19); null below five jobs. */
	priceRecord: PriceRecord | null
}

/** How many months of completed jobs a workshop's price record counts, and how many jobs it needs to be shown. */
export const PRICE_RECORD_MONTHS = 12
export const PRICE_RECORD_MIN_JOBS = 5
export type PriceRecord = { jobs: number; atQuotedPercent: number }

/**
 * A workshop's record of keeping to its price: the share of its completed jobs billed at or below
 * the binding total, rounded down (never flattering); null below `PRICE_RECORD_MIN_JOBS` jobs.
 */
export function priceRecord(jobs: number, atQuoted: number): PriceRecord | null {
	if (jobs < PRICE_RECORD_MIN_JOBS) return null
	return { jobs, atQuotedPercent: Math.floor((100 * atQuoted) / jobs) }
}

export type PublicReview = {
	id: string
	rating: number
	title: string
	body: string
	/** First name and the initial of the last name. */
	reviewer: string
	/** The reviewer signed in with eID and has it linked: a verified person (issue 36). */
	reviewerVerified: boolean
	createdAt: string
	reply: string | null
	repliedAt: string | null
	/** Issue 19: written about a completed job (every review is); its services, its binding total and the price paid. */
	verifiedJob: boolean
	services: string[]
	quotedCents: number | null
	paidCents: number | null
}

/** A review on the home page, with the workshop it is about. */
export type LatestReview = PublicReview & { workshop: { id: string; name: string } }

/** A rating rounded to the nearest half star (spec §2: 5 stars, half stars allowed). */
export function roundToHalf(rating: number): number {
	return Math.min(5, Math.max(0, Math.round(rating * 2) / 2))
}
