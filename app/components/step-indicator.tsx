import { useTranslation } from '~/i18n/translation'

const steps = ['request', 'compare', 'progress', 'feedback'] as const

/** Where the customer is in the four-step service flow (spec §4). */
export function StepIndicator({ current }: { current: 1 | 2 | 3 | 4 }) {
	const { t } = useTranslation('customer')
	return (
		<ol className="steps-indicator" aria-label={t('flow.label')}>
			{steps.map((step, index) => {
				const number = index + 1
				const state = number < current ? 'done' : number === current ? 'current' : 'todo'
				return (
					<li key={step} className={`steps-indicator__step steps-indicator__step--${state}`} aria-current={state === 'current' ? 'step' : undefined}>
						<span className="steps-indicator__number" aria-hidden="true">
							{number}
						</span>
						<span>{t(`flow.${step}`)}</span>
					</li>
				)
			})}
		</ol>
	)
}
