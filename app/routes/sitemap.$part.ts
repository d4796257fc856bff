import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { sitemapPart } from '~/domain/site/sitemap.server'
import { methodNotAllowed } from '~/utils/failures.server'

/** /sitemap/pages.xml and /sitemap/workshops-N.xml: the parts of a large site's sitemap. */
export async function loader({ params }: LoaderFunctionArgs) {
	const xml = await sitemapPart(params.part ?? '')
	if (!xml) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
	return new Response(xml, {
		headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
	})
}

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
