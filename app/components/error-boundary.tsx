import { isRouteErrorResponse, Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'

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
				<Link to="/" className="button button--primary">
					{t('errors.backHome')}
				</Link>
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
