import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { languageCache, publicApi } from '~/utils/public-api.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { workshopSorts } from '~/domain/directory/workshops'
import { getFilterOptions } from '~/domain/directory/workshops.server'
import { getLanguage } from '~/i18n/i18n.server'
import { apiJson } from '~/utils/api.server'
import { countRequestEvents } from '~/counting/daily-counts.server'
import { listWidgetEvents } from '~/counting/events.server'
import { partnerCaching, partnerOf } from '~/domain/partners/partners.server'

/**
 * GET /admin/api/workshop-filters?lng=&partner= — the choices of the list's filters, named in the
 * language asked for. A list widget asks once, when it starts: with a key, one widget shown on its
 * partner's page.
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
	publicApi(request, async () => {
		const partner = await partnerOf(request)
		const options = await getFilterOptions(await getLanguage(request))
		countRequestEvents(request, listWidgetEvents(partner))
		return apiJson({ status: 200, data: { ...options, sorts: workshopSorts } }, { cors: true, headers: partnerCaching(partner, languageCache(request, 60)) })
	})

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
