import * as z from 'zod/mini'
import { searchText } from '~/utils/validation'
import { MAX_PAGE, workshopFreeFilters, workshopSorts, type WorkshopListQuery } from './workshops'

/**
 * The schemas of the directory's query (?q=&city=&service=&brand=&free=&sort=&page=), shared by the
 * page, the JSON API and the widgets. Filters use reference-list codes, so a list can be shared
 * as a link.
 */
const code = z.catch(z.optional(z.string().check(z.trim(), z.toLowerCase(), z.regex(/^[a-z0-9][a-z0-9-]{0,59}$/))), undefined)

const page = z.catch(z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(MAX_PAGE)), 1), 1)

/**
 * The list's query. Lenient like a search box: anything it cannot use is dropped rather than
 * refused (an unknown sort becomes the default, a bad page the first one), so an old or
 * hand-edited link still shows a list.
 */
export const WorkshopListQuerySchema = z.object({
	q: searchText(),
	city: code,
	service: code,
	brand: code,
	free: z.catch(z.optional(z.enum(workshopFreeFilters)), undefined),
	sort: z.catch(z._default(z.enum(workshopSorts), 'rating'), 'rating'),
	page,
})
export function parseWorkshopListQuery(params: URLSearchParams): WorkshopListQuery {
	return WorkshopListQuerySchema.parse(Object.fromEntries([...params].filter(([key]) => key in WorkshopListQuerySchema.shape)))
}

/** The review page of a workshop's details (`?page=`). */
export const ReviewPageSchema = z.object({ page })

