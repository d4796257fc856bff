import { useTranslation } from '~/i18n/translation'
import { useLanguage } from '~/i18n/use-language'
import { formatDateTime } from '~/utils/format'

/** A request's statuses in order, each with when it happened (issue 5, step 3). */
export function Timeline({ events }: { events: Array<{ status: string; at: string }> }) {
	const { t } = useTranslation()
	const language = useLanguage()
	return (
		<ol className="timeline">
			{events.map((event, index) => (
				<li key={`${event.status}-${index}`} className={`timeline__step timeline__step--${event.status}`}>
					<span className="timeline__dot" aria-hidden="true" />
					<span className="timeline__label">{t(`status.request.${event.status}`)}</span>
					<time className="timeline__time" dateTime={event.at}>
						{formatDateTime(event.at, language)}
					</time>
				</li>
			))}
		</ol>
	)
}
