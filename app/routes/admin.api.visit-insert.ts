import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { publicApi } from '~/utils/public-api.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { countVisit } from '~/domain/site/visits.server'
import { apiJson } from '~/utils/api.server'

/**
 * GET /admin/api/visit-insert (spec §7): counts the caller as a visitor of today (once per
 * visitor per day; docs/decisions/0024) and answers `{ status: 200, message: "OK" }`.
 */
export const loader = ({ request, context }: LoaderFunctionArgs) =>
	publicApi(request, async () => {
		await countVisit(request, context)
		return apiJson({ status: 200, message: 'OK' }, { cors: true })
	})

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
