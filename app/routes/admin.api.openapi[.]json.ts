import { type ActionFunctionArgs } from 'react-router'
import { openApiDocument } from '~/domain/api/openapi.server'
import { apiJson } from '~/utils/api.server'
import { methodNotAllowed } from '~/utils/failures.server'

/**
 * GET /admin/api/openapi.json: the API's OpenAPI 3.1 document, generated from its zod schemas.
 * Public and the same for everyone until the next release: cached an hour, a CDN may serve it a
 * day longer while it asks again (the server adds the ETag).
 */
export const loader = () =>
	apiJson(openApiDocument(), { cors: true, headers: { 'Cache-Control': 'public, max-age=3600, s-maxage=3600, stale-while-revalidate=86400' } })

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
