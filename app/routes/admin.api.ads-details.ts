import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { adsForApi } from '~/domain/site/ads.server'
import { publicApi, shortCache } from '~/utils/public-api.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { apiJson } from '~/utils/api.server'

/**
 * GET /admin/api/ads-details (spec §7): `{ status: 200, data: [{ ads_type, image, ads_link, content, placement }] }`.
 * `ads_type` 1 is an image (absolute URL) with an optional link, anything else sanitized HTML in `content`.
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
	publicApi(request, async () => apiJson({ status: 200, data: await adsForApi() }, { cors: true, headers: shortCache }))

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
