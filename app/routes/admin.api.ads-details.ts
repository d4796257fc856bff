import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { adsForApi } from '~/domain/site/ads.server'
import { languageCache, publicApi } from '~/utils/public-api.server'
import { getLanguage } from '~/i18n/i18n.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { apiJson } from '~/utils/api.server'

/**
 * GET /admin/api/ads-details?lng= (spec §7): `{ status: 200, data: [{ ads_type, image, ads_link, content, placement, language }] }`,
 * the ads of the language asked for only. `ads_type` 1 is an image (absolute URL) with an optional
 * link, anything else sanitized HTML in `content`.
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
	publicApi(request, async () => {
		const language = await getLanguage(request)
		return apiJson({ status: 200, data: await adsForApi(language) }, { cors: true, headers: languageCache(request, 60) })
	})

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
