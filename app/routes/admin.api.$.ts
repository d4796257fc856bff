import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { notFound } from '~/utils/public-api.server'

/**
 * Any other path under /admin/api, with any method: the API's JSON 404 (`{ status, message }`,
 * CORS), not the portal's redirect to / (routes/$.tsx), which a program would follow to a page.
 * The calls' own routes are more specific and win; a known path with a method it does not take
 * answers its own 405 with `Allow`.
 */
export const loader = ({ request }: LoaderFunctionArgs) => notFound(request)

export const action = ({ request }: ActionFunctionArgs) => notFound(request)
