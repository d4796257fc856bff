import { type LoaderFunctionArgs } from 'react-router'
import { isEmailPreview, renderEmailPreview } from '~/domain/messaging/email-previews.server'
import { isLanguage } from '~/i18n/config'
import { requireUser } from '~/utils/auth.server'

/**
 * One e-mail's HTML as mail programs get it, for the administrator's preview. E-mail HTML needs
 * inline styles, which the portal's CSP forbids: server/app.ts leaves this path to the CSP set
 * here, which allows inline styles and images and nothing else (no script, no form, no frame).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	if (!isEmailPreview(params.id) || !isLanguage(params.language)) throw new Response('Not found', { status: 404 })
	const { html } = await renderEmailPreview(params.id, params.language)
	return new Response(html, {
		headers: {
			'Content-Type': 'text/html; charset=utf-8',
			'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data: https: http:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
			'Cache-Control': 'no-store',
			'X-Robots-Tag': 'noindex',
		},
	})
}
