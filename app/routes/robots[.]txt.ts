import { type ActionFunctionArgs } from 'react-router'
import { robotsTxt } from '~/domain/site/sitemap.server'
import { methodNotAllowed } from '~/utils/failures.server'

/** /robots.txt, with the sitemap's absolute address (APP_URL). */
export function loader() {
	return new Response(robotsTxt(), {
		headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
	})
}

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
