import { type ActionFunctionArgs } from 'react-router'
import { sitemapXml } from '~/domain/site/sitemap.server'
import { methodNotAllowed } from '~/utils/failures.server'

/** /sitemap.xml: the public pages and every workshop (or the index of the parts on a large site). */
export async function loader() {
	return new Response(await sitemapXml(), {
		headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
	})
}

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
