import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { isLanguage } from '~/i18n/config'
import { getResources } from '~/i18n/resources.server'
import { methodNotAllowed } from '~/utils/failures.server'

/**
 * Every dictionary of a language in one JSON object ({ namespace: { key: text } }), for the
 * browser (app/i18n/bundle-backend.ts). Not under /locales/: in development Vite would serve
 * locales/*.json there as JavaScript modules.
 */
export async function loader({ params }: LoaderFunctionArgs) {
	if (!isLanguage(params.lng)) throw new Response('Not found', { status: 404 })
	return new Response(JSON.stringify(getResources()[params.lng]), {
		headers: {
			'Content-Type': 'application/json; charset=utf-8',
			'Cache-Control': 'public, max-age=300, stale-while-revalidate=86400',
		},
	})
}

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
