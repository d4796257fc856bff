import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from './button-link'
import { useLanguage } from '~/i18n/use-language'
import { formatDateTime } from '~/utils/format'
import { Stars } from './stars'

export type NotificationDetailData = {
	message: string
	createdAt: string
	link: { to: string; labelKey: string } | null
	review: { title: string; rating: number; body: string; reply: string | null } | null
	chat: { id: string; name: string } | null
}

/** What a type-1 notification is about: in the bell's dialog and on its own page. */
export function NotificationDetailView({ detail }: { detail: NotificationDetailData }) {
	const { t } = useTranslation('account')
	const language = useLanguage()
	return (
		<div className="notification-detail">
			<p className="notification-detail__message">{detail.message}</p>
			<p className="notification-detail__time">
				<time dateTime={detail.createdAt}>{formatDateTime(detail.createdAt, language)}</time>
			</p>
			{detail.review ? (
				<blockquote className="notification-detail__review">
					<Stars rating={detail.review.rating} size="small" />
					{detail.review.title ? <strong>{detail.review.title}</strong> : null}
					<p>{detail.review.body}</p>
					{detail.review.reply ? (
						<div className="notification-detail__reply">
							<strong>{t('notifications.reply')}</strong>
							<p>{detail.review.reply}</p>
						</div>
					) : null}
				</blockquote>
			) : null}
			{detail.link ? (
				<ButtonLink to={detail.link.to}>{t(detail.link.labelKey)}</ButtonLink>
			) : null}
		</div>
	)
}
