import { getInputProps } from '@conform-to/react'
import { useTranslation } from '~/i18n/translation'
import { Field, type ConformField } from './forms'

/** The "active" box of an admin form (ads, reference lists, packages), its label after the box. */
export function ActiveCheckbox({ field, label }: { field: ConformField; label: string }) {
	return (
		<label className="admin-check">
			<input {...getInputProps(field, { type: 'checkbox' })} />
			{label}
		</label>
	)
}

/** Where an item stands in its list, and whether it is shown: the last fields of an ad and of a list item. */
export function SortOrderAndActive({ sortOrder, active, activeLabel }: { sortOrder: ConformField; active: ConformField; activeLabel: string }) {
	const { t } = useTranslation('admin')
	return (
		<>
			<Field
				className="field--small"
				label={t('ads.sortOrder')}
				inputProps={{ ...getInputProps(sortOrder, { type: 'number' }), min: 0 }}
				errors={sortOrder.errors}
			/>
			<ActiveCheckbox field={active} label={activeLabel} />
		</>
	)
}
