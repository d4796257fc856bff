import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { apiWorkshopCard } from '~/domain/directory/api-shapes.server'
import { languageCache, publicApi } from '~/utils/public-api.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { parseWorkshopListQuery } from '~/domain/directory/list-query'
import { promotedWorkshops, searchWorkshops } from '~/domain/directory/workshops.server'
import { getLanguage } from '~/i18n/i18n.server'
import { apiJson } from '~/utils/api.server'
import { countRequestEvents } from '~/counting/daily-counts.server'
import { searchEvents } from '~/counting/events.server'
import { partnerCaching, partnerOf } from '~/domain/partners/partners.server'

/**
 * GET /admin/api/workshop-list?q=&city=&service=&brand=&sort=&page=&lng=&partner= — the directory
 * page's list as JSON, with the same filters, sort and paging, and the paid workshops apart
 * (docs/api.md). With a partner's key: its origin and limit checked, the search counted for it.
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
	publicApi(request, async () => {
		const partner = await partnerOf(request)
		const language = await getLanguage(request)
		const query = parseWorkshopListQuery(new URL(request.url).searchParams)
		const [result, promoted] = await Promise.all([searchWorkshops(query, language), promotedWorkshops(query, language)])
		countRequestEvents(request, searchEvents([...result.items, ...promoted].map((card) => card.id), partner))
		// `items` in the order the sort names; the paid workshops apart in `promoted`, to be shown as an ad (decision 0128).
		return apiJson(
			{ status: 200, data: { ...result, items: result.items.map(apiWorkshopCard), promoted: promoted.map(apiWorkshopCard), query } },
			{ cors: true, headers: partnerCaching(partner, languageCache(request, 30)) },
		)
	})

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
