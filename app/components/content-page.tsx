import { useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { type ContentPageLoader } from '~/domain/site/content.server'
import { routeMeta } from '~/utils/meta'

/** About us, terms and conditions, privacy policy: a title and a sanitized body from the database. */
export function ContentPage() {
	const { page } = useLoaderData<ContentPageLoader>()
	const { t } = useTranslation('public')
	return (
		<article className="content-page container" lang={page.language} aria-labelledby="content-title">
			<header className="content-page__header">
				<h1 id="content-title">{page.title}</h1>
				<p className="content-page__updated">{t('content.updated', { date: page.updated })}</p>
			</header>
			{/* Sanitized on the server (app/utils/sanitize.server.ts). */}
			<div className="content-page__body prose" dangerouslySetInnerHTML={{ __html: page.html }} />
		</article>
	)
}

export const contentPageMeta = routeMeta<ContentPageLoader>()
