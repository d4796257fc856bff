import { z } from 'zod'
import { searchText } from '~/utils/validation'
import { MAX_PAGE, workshopSorts, type WorkshopListQuery } from './workshops'

/**
 * The schemas of the directory's query (?q=&city=&service=&brand=&sort=&page=), shared by the
 * page, the JSON API and the widgets. Filters use reference-list codes, so a list can be shared
 * as a link.
 */
const code = z
	.string()
	.trim()
	.toLowerCase()
	.regex(/^[a-z0-9][a-z0-9-]{0,59}$/)
	.optional()
	.catch(undefined)

const page = z.coerce.number().int().min(1).max(MAX_PAGE).default(1).catch(1)

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
	sort: z.enum(workshopSorts).default('rating').catch('rating'),
	page,
})
export function parseWorkshopListQuery(params: URLSearchParams): WorkshopListQuery {
	return WorkshopListQuerySchema.parse(Object.fromEntries([...params].filter(([key]) => key in WorkshopListQuerySchema.shape)))
}

/** The review page of a workshop's details (`?page=`). */
export const ReviewPageSchema = z.object({ page })

