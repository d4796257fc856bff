import { type LoaderFunctionArgs } from 'react-router'
import { Link, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { PageHeader } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { emailPreviews, renderEmailPreview } from '~/domain/messaging/email-previews.server'
import { isLanguage, supportedLanguages } from '~/i18n/config'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { routeMeta } from '~/utils/meta'

/** Every e-mail the portal sends, in the chosen language (issue 15): subject, plain text, and the HTML on its own page. */
export async function loader({ request }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	const reader = await getLanguage(request)
	const asked = new URL(request.url).searchParams.get('in')
	const language = isLanguage(asked) ? asked : reader
	const t = getFixedT(reader, 'admin')
	const previews = await Promise.all(
		emailPreviews.map(async (preview) => {
			const { subject, text } = await renderEmailPreview(preview.id, language)
			return { ...preview, subject, text }
		}),
	)
	return { meta: { title: t('emails.title') }, language, previews }
}

export const meta = routeMeta<typeof loader>()

const groups = ['events', 'scheduled', 'account'] as const

export default function AdminEmailsPage() {
	const { t } = useTranslation('admin')
	const { language, previews } = useLoaderData<typeof loader>()
	return (
		<>
			<PageHeader title={t('emails.title')} subtitle={t('emails.subtitle')} />
			<nav className="filter-tabs" aria-label={t('emails.languages')}>
				<ul>
					{supportedLanguages.map((option) => (
						<li key={option}>
							<Link to={`?in=${option}`} aria-current={option === language ? 'page' : undefined}>
								{t(`common:language.${option}`)}
							</Link>
						</li>
					))}
				</ul>
			</nav>
			{groups.map((group) => (
				<Panel key={group} id={`emails-${group}`} title={t(`emails.groups.${group}`)}>
					<ul className="email-previews">
						{previews
							.filter((preview) => preview.group === group)
							.map((preview) => (
								<li key={preview.id} className="email-preview">
									<p className="email-preview__subject">
										<strong>{preview.subject}</strong>{' '}
										<span className="admin-muted">{t(preview.optional ? 'emails.optional' : 'emails.always')}</span>
									</p>
									<p>
										<a href={`/admin/emails/preview/${preview.id}/${language}`} target="_blank" rel="noreferrer">
											{t('emails.openHtml')}
										</a>
									</p>
									<details>
										<summary>{t('emails.textPart')}</summary>
										<pre className="admin-json">{preview.text}</pre>
									</details>
								</li>
							))}
					</ul>
				</Panel>
			))}
		</>
	)
}
