import { isRouteErrorResponse } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from './button-link'

/**
 * The text of a refusal: the app's own (already translated) when it sent one; for the
 * framework's (a POST to a page without a form, marked `internal`) a translated one, never its
 * developer message.
 */
function refusalText(error: { status: number; data: unknown; internal?: boolean }, t: (key: string) => string) {
	if (!error.internal && typeof error.data === 'string' && error.data) return error.data
	return error.status === 405 ? t('errors.methodNotAllowed') : t('errors.badRequest')
}

/** The error content of any route: a 404 page, a 403 page, or the unexpected-error text (spec §8). */
export function GeneralErrorBoundary({ error }: { error: unknown }) {
	const { t } = useTranslation()
	if (isRouteErrorResponse(error) && (error.status === 404 || error.status === 403)) {
		const kind = error.status === 404 ? 'notFound' : 'forbidden'
		return (
			<section className="error-page container" aria-labelledby="error-title">
				<p className="error-page__code">{error.status}</p>
				<h1 id="error-title">{t(`errors.${kind}Title`)}</h1>
				<p>{kind === 'forbidden' && typeof error.data === 'string' && error.data ? error.data : t(`errors.${kind}Text`)}</p>
				<ButtonLink to="/">{t('errors.backHome')}</ButtonLink>
			</section>
		)
	}
	// A refusal the server answered on purpose (a broken form body, a conflict, the database away):
	// its translated text, not the unexpected-error page.
	if (isRouteErrorResponse(error) && (error.status === 503 || (error.status >= 400 && error.status < 500))) {
		const unavailable = error.status === 503
		return (
			<section className="error-page container" role="alert" aria-labelledby="error-title">
				<p className="error-page__code">{error.status}</p>
				<h1 id="error-title">{t(unavailable ? 'errors.unavailableTitle' : 'errors.requestFailedTitle')}</h1>
				<p>{unavailable ? t('errors.unavailableText') : refusalText(error, t)}</p>
				<a href="/" className="button button--primary">
					{t('errors.backHome')}
				</a>
			</section>
		)
	}
	const text = isRouteErrorResponse(error)
		? `${error.status} ${error.statusText}${typeof error.data === 'string' && error.data ? `: ${error.data}` : ''}`
		: error instanceof Error
			? error.message
			: String(error)
	return (
		<section className="error-page container" role="alert" aria-labelledby="error-title">
			<h1 id="error-title">{t('errors.unexpected')}</h1>
			<pre className="error-page__detail">{text}</pre>
			<a href="/" className="button button--primary">
				{t('errors.backHome')}
			</a>
		</section>
	)
}
