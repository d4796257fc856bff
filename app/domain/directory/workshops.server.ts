import { sql, type SQL } from 'drizzle-orm'
import { type Language } from '~/i18n/config'
import { getFixedT } from '~/i18n/i18n.server'
import { bindingTotal, listedWorkshop, localizedName, serviceNames, verifiedPerson, workshopOwnerNotBlocked } from '~/db/sql'
import { offerMoves } from '~/domain/service-flow/status'
import { forgetCaches } from '~/caching/cache-bus.server'
import { valueCache } from '~/caching/value-cache.server'
import { db, queryRows, type DbOrTx } from '~/db/db.server'
import { referenceLists, type ReferenceList } from '~/domain/site/reference.server'
import { encodeId } from '~/utils/public-id'
import { uploadUrl } from '~/uploads/upload-url'
import { imageSourcesFor } from '~/uploads/access.server'
import { freeWeekEnd } from '~/domain/booking/free-times'
import { nextFreeTimes } from '~/domain/booking/next-free.server'
import {
	MIN_RATED_REVIEWS,
	PRICE_RECORD_MONTHS,
	PROMOTED_LIMIT,
	priceRecord,
	REVIEW_PAGE_SIZE,
	reviewerName,
	WORKSHOP_PAGE_SIZE,
	type FilterOptions,
	type LatestReview,
	type OpeningHours,
	type Paged,
	type PublicReview,
	type WorkshopCard,
	type WorkshopListQuery,
	type WorkshopProfile,
	type WorkshopSort,
} from './workshops'

/**
 * The public directory: the list with its filters, sort and paging, one workshop's profile and
 * its reviews, and the home page's featured workshops and latest reviews.
 *
 * Every filter and sort is served by an index (migration 0003_directory_indexes and the schema),
 * so the list stays fast with 100,000 workshops (`npm run bench`). A page of workshops is one
 * query, its count another, and the names of their services a third: never a query per card.
 */

// ---------------------------------------------------------------- reference lists

/** The choices of the city, service and car brand filters, named in the reader's language (reference.server.ts keeps them). */
export async function getFilterOptions(language: Language): Promise<FilterOptions> {
	const lists = await referenceLists()
	const options = (list: ReferenceList) => list.items[language].map(({ code, name }) => ({ code, name }))
	return { cities: options(lists.cities), services: options(lists.services), brands: options(lists.carBrands) }
}

// ---------------------------------------------------------------- the list

// "nulls last" as the indexes are built (the columns are never null, but the planner matches the index order literally).
// No sort looks at the paid package (issue 32, decision 0128): paid workshops get the block above
// the list (promotedWorkshops), labelled as an ad. The threshold is written into the SQL as a
// literal, so that the expression matches the index's (migration "rating_sort").
const hasEnoughReviews = sql.raw(`(w.review_count >= ${Number(MIN_RATED_REVIEWS)})`)
const orderings: Record<WorkshopSort, SQL> = {
	rating: sql`${hasEnoughReviews} desc nulls last, w.rating_average desc nulls last, w.review_count desc nulls last, w.id`,
	reviews: sql`w.review_count desc nulls last, w.rating_average desc nulls last, w.id`,
	name: sql`lower(w.workshop_name), w.id`,
}

/** `%text%` for ILIKE, with the user's own % and _ taken literally. */
function containsPattern(text: string) {
	return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

type CardRow = {
	id: string
	workshop_name: string
	city_name: string | null
	logo_upload_id: string | null
	rating_average: number
	review_count: number
	package_rank: number
	response_minutes: number | null
	next_free_at: string | Date | null
}

const MAIN_SERVICES = 4

/** Two decimals are plenty for an average of 1 to 5 stars. */
const roundRating = (value: number | string) => Math.round(Number(value) * 100) / 100

async function cardsFor(rows: CardRow[], language: Language, firstService?: string, now = new Date()): Promise<WorkshopCard[]> {
	if (!rows.length) return []
	const ids = sql.join(
		rows.map((row) => sql`${row.id}::uuid`),
		sql`, `,
	)
	// One query for the services of the whole page, one for its logos.
	const [services, logos] = await Promise.all([
		queryRows<{ workshop_id: string; code: string; name: string }>(
			db,
			sql`select ws.workshop_id, s.code, ${localizedName('s', language)} as name
			    from workshop_services ws join services s on s.id = ws.service_id
			    where ws.workshop_id in (${ids})
			    order by s.sort_order, s.code`,
		),
		imageSourcesFor(rows.map((row) => row.logo_upload_id)),
	])
	const byWorkshop = new Map<string, Array<{ code: string; name: string }>>()
	for (const service of services) {
		const list = byWorkshop.get(service.workshop_id) ?? []
		list.push(service)
		byWorkshop.set(service.workshop_id, list)
	}
	return rows.map((row) => {
		const list = byWorkshop.get(row.id) ?? []
		// The service the reader filtered on comes first on the card.
		const ordered = firstService ? [...list.filter((s) => s.code === firstService), ...list.filter((s) => s.code !== firstService)] : list
		return {
			id: encodeId(row.id),
			name: row.workshop_name,
			city: row.city_name,
			logo: row.logo_upload_id ? uploadUrl(row.logo_upload_id, 'thumb') : null,
			logoImage: (row.logo_upload_id && logos.get(row.logo_upload_id)) || null,
			ratingAverage: roundRating(row.rating_average),
			reviewCount: Number(row.review_count),
			responseMinutes: row.response_minutes,
			services: ordered.slice(0, MAIN_SERVICES).map((s) => s.name),
			featured: Number(row.package_rank) > 0,
			// Kept by the booking job every 15 minutes; one already past is not shown until it is moved on.
			nextFreeAt: row.next_free_at && new Date(row.next_free_at).getTime() > now.getTime() ? new Date(row.next_free_at).toISOString() : null,
		}
	})
}

const emptyPage = <T>(page: number, pageSize: number): Paged<T> => ({ items: [], page, pageSize, total: 0, totalPages: 0, capped: false })

/** `free`: next_free_at within [from, until) (the "free this week" filter, issue 33). */
type Filters = { cityId?: string; serviceId?: string; brandId?: string; q?: string; free?: { from: Date; until: Date } }

/** The filters as ids; null when a code names nothing (then nothing matches). */
async function resolveFilters(query: WorkshopListQuery, now: Date): Promise<Filters | null> {
	const lists = await referenceLists()
	const filters: Filters = { q: query.q, ...(query.free === 'week' ? { free: { from: now, until: freeWeekEnd(now) } } : {}) }
	for (const [key, list, code] of [
		['cityId', lists.cities, query.city],
		['serviceId', lists.services, query.service],
		['brandId', lists.carBrands, query.brand],
	] as const) {
		if (!code) continue
		const id = list.idByCode.get(code)
		if (!id) return null
		filters[key] = id
	}
	return filters
}

/** The workshops of blocked accounts, for the link-table counts (see workshopOwnerNotBlocked). */
const BLOCKED_WORKSHOP_IDS = sql`select bw.id from workshops bw join users bu on bu.id = bw.user_id where bu.blocked`

// Only listed workshops appear in the directory (listedWorkshop). The link-table counts below rely
// on it: a workshop with services always has a city.

function whereClause(filters: Filters, ...more: SQL[]): SQL {
	const conditions: SQL[] = [listedWorkshop, ...more]
	if (filters.cityId) conditions.push(sql`w.city_id = ${filters.cityId}`)
	if (filters.serviceId) conditions.push(sql`exists (select 1 from workshop_services ws where ws.workshop_id = w.id and ws.service_id = ${filters.serviceId})`)
	if (filters.brandId) conditions.push(sql`exists (select 1 from workshop_car_brands wb where wb.workshop_id = w.id and wb.car_brand_id = ${filters.brandId})`)
	if (filters.q) conditions.push(sql`w.workshop_name ilike ${containsPattern(filters.q)}`)
	if (filters.free) {
		conditions.push(sql`w.next_free_at >= ${filters.free.from.toISOString()}::timestamptz and w.next_free_at < ${filters.free.until.toISOString()}::timestamptz`)
	}
	return sql`where ${sql.join(conditions, sql` and `)}`
}

async function pageRows(filters: Filters, sort: WorkshopSort, language: Language, limit: number, offset: number, ...more: SQL[]) {
	// The first rows of the sort's index that pass the filters: a short walk down one index (see 0003_directory_indexes).
	return queryRows<CardRow>(
		db,
		sql`select w.id, w.workshop_name, ${localizedName('c', language)} as city_name,
		           w.logo_upload_id, w.rating_average, w.review_count, w.package_rank, w.response_minutes, w.next_free_at
		    from workshops w left join cities c on c.id = w.city_id
		    ${whereClause(filters, ...more)}
		    order by ${orderings[sort]}
		    limit ${limit} offset ${offset}`,
	)
}

/** A name search that matches more workshops than this is counted only this far ("more than 1,000"). */
export const TEXT_COUNT_CAP = 1000
const countCache = valueCache<{ total: number; capped: boolean }>('directory-counts', { ttlMs: 30_000, max: 1000 })

/**
 * How many workshops pass the filters. Counting is the expensive half of a list page, so:
 * - with only service and brand filters (not "free this week") it counts the link tables' index entries and never
 *   touches the 100,000 workshops (a fifth of the time of a join);
 * - a name search stops counting at TEXT_COUNT_CAP (a common word can match a quarter of all names);
 * - answers are kept in memory for 30 s, so paging through a list and popular filters cost nothing.
 */
function countWorkshops(filters: Filters): Promise<{ total: number; capped: boolean }> {
	// "Free this week" is counted per minute: what is free changes as time passes.
	const key = JSON.stringify([filters.cityId, filters.serviceId, filters.brandId, filters.q?.toLowerCase(), filters.free && Math.floor(filters.free.from.getTime() / 60_000)])
	return countCache.get(key, () => loadCount(filters))
}

async function loadCount(filters: Filters): Promise<{ total: number; capped: boolean }> {
	let statement: SQL
	if (filters.q) {
		statement = sql`select count(*)::int as total from (select 1 from workshops w ${whereClause(filters)} limit ${TEXT_COUNT_CAP + 1}) t`
	} else if (!filters.cityId && !filters.free && filters.serviceId) {
		statement = sql`select count(*)::int as total from workshop_services ws where ws.service_id = ${filters.serviceId}
		                and ws.workshop_id not in (${BLOCKED_WORKSHOP_IDS})
		                ${filters.brandId ? sql`and exists (select 1 from workshop_car_brands wb where wb.workshop_id = ws.workshop_id and wb.car_brand_id = ${filters.brandId})` : sql``}`
	} else if (!filters.cityId && !filters.free && filters.brandId) {
		statement = sql`select count(*)::int as total from workshop_car_brands wb where wb.car_brand_id = ${filters.brandId}
		                and wb.workshop_id not in (${BLOCKED_WORKSHOP_IDS})`
	} else {
		statement = sql`select count(*)::int as total from workshops w ${whereClause(filters)}`
	}
	const [row] = await queryRows<{ total: number }>(db, statement)
	const counted = Number(row?.total ?? 0)
	return { total: Math.min(counted, filters.q ? TEXT_COUNT_CAP : counted), capped: Boolean(filters.q) && counted > TEXT_COUNT_CAP }
}

/** Drops the remembered counts, the cities' too, in every process (a profile saved, an owner blocked, tests). */
export function forgetWorkshopCounts(tx?: DbOrTx) {
	return forgetCaches(tx, 'directory-counts')
}

/** A page of the directory for the page, the JSON API and the widgets, in the order the sort names. */
export async function searchWorkshops(
	query: WorkshopListQuery,
	language: Language,
	pageSize = WORKSHOP_PAGE_SIZE,
	now = new Date(),
): Promise<Paged<WorkshopCard>> {
	const filters = await resolveFilters(query, now)
	if (!filters) return emptyPage(query.page, pageSize)
	const [rows, { total, capped }] = await Promise.all([
		pageRows(filters, query.sort, language, pageSize, (query.page - 1) * pageSize),
		countWorkshops(filters),
	])
	// A capped count is a lower bound: offer the next page while this one is full.
	const totalPages = capped ? Math.max(Math.ceil(total / pageSize), query.page + (rows.length === pageSize ? 1 : 0)) : Math.ceil(total / pageSize)
	return {
		items: await cardsFor(rows, language, query.service, now),
		page: query.page,
		pageSize,
		total,
		totalPages,
		capped,
	}
}

/**
 * The paid workshops that pass the list's filters, for the block above the list labelled as an ad
 * (issue 32, decision 0128): at most `PROMOTED_LIMIT`, best rated first. They keep their own place
 * in the sorted list too; paying moves nobody up it.
 */
export async function promotedWorkshops(query: WorkshopListQuery, language: Language, limit = PROMOTED_LIMIT, now = new Date()): Promise<WorkshopCard[]> {
	const filters = await resolveFilters(query, now)
	if (!filters) return []
	return cardsFor(await pageRows(filters, 'rating', language, limit, 0, sql`w.package_rank > 0`), language, query.service, now)
}

/** The home page's best rated workshops, by the list's "best rated" rule (payment plays no part). */
export async function getFeaturedWorkshops(language: Language, limit = 6): Promise<WorkshopCard[]> {
	return cardsFor(await pageRows({}, 'rating', language, limit, 0), language)
}

// ---------------------------------------------------------------- one workshop

type ProfileRow = {
	id: string
	record_jobs: number
	record_at_quoted: number
	workshop_name: string
	company_name: string
	phone: string
	email: string
	website: string | null
	founded_year: number | null
	installers_count: number | null
	state: string
	street_name: string
	zip_code: string
	city_name: string | null
	city_code: string | null
	marketing_text: string
	additional_services: string
	logo_upload_id: string | null
	weekday_opens: string | null
	weekday_closes: string | null
	saturday_opens: string | null
	saturday_closes: string | null
	sunday_opens: string | null
	sunday_closes: string | null
	warranty_work_km: number | null
	warranty_parts_months: number | null
	warranty_info: string
	warranty_document_upload_id: string | null
	rating_average: number
	review_count: number
	package_rank: number
	response_minutes: number | null
}

const hours = (opens: string | null, closes: string | null): OpeningHours =>
	opens && closes ? { opens: opens.slice(0, 5), closes: closes.slice(0, 5) } : null

/** A workshop's whole public profile, or null when there is no such workshop. */
export async function getWorkshopProfile(workshopId: string, language: Language, now = new Date()): Promise<WorkshopProfile | null> {
	const [row] = await queryRows<ProfileRow>(
		db,
		sql`select w.*, ${localizedName('c', language)} as city_name, c.code as city_code, pr.jobs as record_jobs, pr.at_quoted as record_at_quoted
		    from workshops w left join cities c on c.id = w.city_id
		    -- Its record (issue 19): the jobs completed in the last 12 months, and those billed at or below the binding total.
		    cross join lateral (
		      select count(*)::int as jobs, (count(*) filter (where o.final_price_cents <= ${bindingTotal()}))::int as at_quoted
		      from offers o
		      where o.workshop_id = w.id and o.status = ${offerMoves.completeJob.to}
		        and o.completed_at >= ${now}::timestamptz - make_interval(months => ${PRICE_RECORD_MONTHS})) pr
		    where w.id = ${workshopId} and ${workshopOwnerNotBlocked}`,
	)
	if (!row) return null
	const [photos, lists, freeStarts] = await Promise.all([
		queryRows<{ upload_id: string }>(db, sql`select upload_id from workshop_photos where workshop_id = ${workshopId} order by position, id`),
		// The four lists of names in one query.
		queryRows<{ kind: string; name: string }>(
			db,
			sql`select 'services' as kind, ${localizedName('r', language)} as name, r.sort_order from workshop_services l join services r on r.id = l.service_id where l.workshop_id = ${workshopId}
			    union all
			    select 'brands', ${localizedName('r', language)}, r.sort_order from workshop_car_brands l join car_brands r on r.id = l.car_brand_id where l.workshop_id = ${workshopId}
			    union all
			    select 'parts', ${localizedName('r', language)}, r.sort_order from workshop_spare_parts l join spare_parts r on r.id = l.spare_part_id where l.workshop_id = ${workshopId}
			    union all
			    select 'payments', ${localizedName('r', language)}, r.sort_order from workshop_payment_methods l join payment_methods r on r.id = l.payment_method_id where l.workshop_id = ${workshopId}
			    order by 1, 3, 2`,
		),
		// From its calendar, for a typical job (issue 33).
		nextFreeTimes(workshopId, { now }),
	])
	const namesOf = (kind: string) => lists.filter((item) => item.kind === kind).map((item) => item.name)
	const images = await imageSourcesFor([row.logo_upload_id, ...photos.map((photo) => photo.upload_id)])
	return {
		id: encodeId(row.id),
		name: row.workshop_name,
		companyName: row.company_name,
		featured: Number(row.package_rank) > 0,
		logo: row.logo_upload_id ? uploadUrl(row.logo_upload_id) : null,
		photos: photos.map((photo) => ({ url: uploadUrl(photo.upload_id), thumbnail: uploadUrl(photo.upload_id, 'thumb') })),
		images: {
			logo: (row.logo_upload_id && images.get(row.logo_upload_id)) || null,
			photos: photos.map((photo) => images.get(photo.upload_id) ?? null),
		},
		marketingText: row.marketing_text,
		address: { street: row.street_name, zipCode: row.zip_code, city: row.city_name, cityCode: row.city_code, state: row.state },
		phone: row.phone,
		email: row.email,
		website: row.website && /^https?:\/\//i.test(row.website) ? row.website : null,
		foundedYear: row.founded_year,
		installersCount: row.installers_count,
		carBrands: namesOf('brands').sort((a, b) => a.localeCompare(b, language)),
		services: namesOf('services'),
		additionalServices: row.additional_services,
		spareParts: namesOf('parts'),
		paymentMethods: namesOf('payments'),
		openingHours: {
			weekdays: hours(row.weekday_opens, row.weekday_closes),
			saturday: hours(row.saturday_opens, row.saturday_closes),
			sunday: hours(row.sunday_opens, row.sunday_closes),
		},
		nextFreeTimes: freeStarts.map((time) => time.toISOString()),
		warranty: {
			workKm: row.warranty_work_km,
			partsMonths: row.warranty_parts_months,
			info: row.warranty_info,
			document: row.warranty_document_upload_id ? uploadUrl(row.warranty_document_upload_id) : null,
		},
		ratingAverage: roundRating(row.rating_average),
		reviewCount: Number(row.review_count),
		responseMinutes: row.response_minutes,
		priceRecord: priceRecord(row.record_jobs, row.record_at_quoted),
	}
}

type ReviewRow = {
	id: string
	services: string[] | null
	quoted_cents: number | null
	paid_cents: number | null
	rating: number
	title: string
	body: string
	first_name: string
	last_name: string
	reviewer_verified: boolean
	created_at: string | Date
	reply: string | null
	replied_at: string | Date | null
}

const iso = (value: string | Date) => new Date(value).toISOString()

/**
 * A review's author as every page and call shows it. A deleted account's reviews stay, under
 * "Former customer" in the reader's language (issue 21, decision 0111): its names are empty.
 */
export const shownReviewer = (firstName: string, lastName: string, language: Language) =>
	reviewerName(firstName, lastName) || getFixedT(language, 'common')('formerCustomer')

function toReview(row: ReviewRow, language: Language): PublicReview {
	return {
		id: encodeId(row.id),
		rating: Number(row.rating),
		title: row.title,
		body: row.body,
		reviewer: shownReviewer(row.first_name, row.last_name, language),
		reviewerVerified: row.reviewer_verified,
		createdAt: iso(row.created_at),
		reply: row.reply || null,
		repliedAt: row.reply && row.replied_at ? iso(row.replied_at) : null,
		verifiedJob: row.paid_cents !== null,
		services: row.services ?? [],
		quotedCents: row.quoted_cents,
		paidCents: row.paid_cents,
	}
}

/**
 * A review's job (issue 19): its request's services, the binding total (the offer and its approved
 * extra work) and the price paid, from the completed job the review is about (alias r).
 */
const reviewJobColumns = (language: Language) =>
	sql`${serviceNames(language, 'sr')} as services, ${bindingTotal()} as quoted_cents, o.final_price_cents as paid_cents`
const reviewJobJoins = sql`left join service_requests sr on sr.id = r.request_id
		    left join offers o on o.id = sr.selected_offer_id and o.status = ${offerMoves.completeJob.to}`

/**
 * A page of a workshop's reviews with the workshop's replies, newest first. The total is the
 * workshop's review count, which the review domain keeps in step.
 */
export async function getWorkshopReviews(
	workshopId: string,
	reviewCount: number,
	page: number,
	language: Language,
	pageSize = REVIEW_PAGE_SIZE,
): Promise<Paged<PublicReview>> {
	const rows = await queryRows<ReviewRow>(
		db,
		sql`select r.id, r.rating, r.title, r.body, r.reply, r.replied_at, r.created_at, u.first_name, u.last_name, ${verifiedPerson(sql`u.id`)} as reviewer_verified, ${reviewJobColumns(language)}
		    from reviews r join users u on u.id = r.customer_id
		    ${reviewJobJoins}
		    where r.workshop_id = ${workshopId} and r.hidden_at is null
		    order by r.created_at desc nulls last, r.id
		    limit ${pageSize} offset ${(page - 1) * pageSize}`,
	)
	return {
		items: rows.map((row) => toReview(row, language)),
		page,
		pageSize,
		total: reviewCount,
		totalPages: Math.ceil(reviewCount / pageSize),
		capped: false,
	}
}

/** The newest reviews on the whole site, for the home page. */
export async function getLatestReviews(language: Language, limit = 6): Promise<LatestReview[]> {
	const rows = await queryRows<ReviewRow & { workshop_id: string; workshop_name: string }>(
		db,
		sql`select r.id, r.rating, r.title, r.body, r.reply, r.replied_at, r.created_at, u.first_name, u.last_name, ${verifiedPerson(sql`u.id`)} as reviewer_verified,
		           w.id as workshop_id, w.workshop_name, ${reviewJobColumns(language)}
		    from reviews r join users u on u.id = r.customer_id join workshops w on w.id = r.workshop_id
		    ${reviewJobJoins}
		    where r.hidden_at is null
		    order by r.created_at desc nulls last, r.id
		    limit ${limit}`,
	)
	return rows.map((row) => ({ ...toReview(row, language), workshop: { id: encodeId(row.workshop_id), name: row.workshop_name } }))
}
