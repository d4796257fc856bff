import { type LoaderFunctionArgs } from 'react-router'
import { useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { routeMeta } from '~/utils/meta'
import { pageSeo } from '~/utils/seo.server'

/** Spec §1: the subscription succeeded and the invoice was sent to the billing e-mail. The subscription flow redirects here. */
export async function loader({ request }: LoaderFunctionArgs) {
	const language = await getLanguage(request)
	const t = getFixedT(language, 'public')
	return { meta: pageSeo(request, language, { title: t('thankYou.metaTitle') }, { noindex: true }) }
}

export const meta = routeMeta<typeof loader>()

export default function ThankYouPage() {
	useLoaderData<typeof loader>()
	const { t } = useTranslation('public')
	return (
		<div className="container page-section">
			<section className="card thank-you" aria-labelledby="thank-you-title">
				<div className="thank-you__icon" aria-hidden="true">
					<svg viewBox="0 0 24 24" width="48" height="48" focusable="false">
						<path d="M9.5 16.2 5.3 12l-1.4 1.4 5.6 5.6 11-11-1.4-1.4z" fill="currentColor" />
					</svg>
				</div>
				<h1 id="thank-you-title">{t('thankYou.title')}</h1>
				<p className="lead">{t('thankYou.subscribed')}</p>
				<p>{t('thankYou.invoice')}</p>
				<div className="form-actions thank-you__actions">
					<ButtonLink to="/subscription">{t('thankYou.toSubscription')}</ButtonLink>
					<ButtonLink to="/dashboard" kind="ghost">{t('thankYou.toDashboard')}</ButtonLink>
				</div>
			</section>
		</div>
	)
}
