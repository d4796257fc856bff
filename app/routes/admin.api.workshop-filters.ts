import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { languageCache, publicApi } from '~/utils/public-api.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { workshopSorts } from '~/domain/directory/workshops'
import { getFilterOptions } from '~/domain/directory/workshops.server'
import { getLanguage } from '~/i18n/i18n.server'
import { apiJson } from '~/utils/api.server'

/** GET /admin/api/workshop-filters?lng= — the choices of the list's filters, named in the language asked for. */
export const loader = ({ request }: LoaderFunctionArgs) =>
	publicApi(request, async () => {
		const options = await getFilterOptions(await getLanguage(request))
		return apiJson({ status: 200, data: { ...options, sorts: workshopSorts } }, { cors: true, headers: languageCache(request, 60) })
	})

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
