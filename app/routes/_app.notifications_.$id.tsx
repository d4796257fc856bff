import { type LoaderFunctionArgs } from 'react-router'
import { useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { NotificationDetailView } from '~/components/notification-detail'
import { PageHeader } from '~/components/page-header'
import { getNotificationDetail } from '~/domain/messaging/notifications.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { routeMeta } from '~/utils/meta'
import { idParam, or404 } from '~/utils/route-helpers.server'

/** One notification and the item it is about: the type-1 dialog's content, and its page without JavaScript. */
export async function loader({ request, params }: LoaderFunctionArgs) {
	const user = await requireUser(request)
	const language = await getLanguage(request)
	const t = getFixedT(language, 'account')
	const detail = await or404(getNotificationDetail(user.id, idParam(params.id), language))
	return { meta: { title: t('notifications.title') }, detail }
}

export const meta = routeMeta<typeof loader>()

export default function NotificationPage() {
	const { t } = useTranslation('account')
	const { detail } = useLoaderData<typeof loader>()
	return (
		<>
			<PageHeader
				title={t('notifications.title')}
				actions={
					<ButtonLink to="/notifications" kind="ghost">{t('notifications.all')}</ButtonLink>
				}
			/>
			<section className="card">
				<NotificationDetailView detail={detail} />
			</section>
		</>
	)
}
