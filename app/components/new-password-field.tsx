import { getInputProps } from '@conform-to/react'
import { PASSWORD_MAX_LENGTH } from '~/utils/validation'
import { Field, type ConformField } from './forms'

/**
 * A password being chosen (registration, a reset, a change). Never cut at a length: no
 * maxLength, a longer one is refused with a message (decision 0121). With JavaScript the message
 * comes at once, as a too-long password is typed or pasted, and every rule shows when the field
 * is left; without it, the server says the same on submit.
 */
export function NewPasswordField({
	field,
	validate,
	label,
	help,
}: {
	field: ConformField
	/** The form's `validate` for one field (Conform's `form.validate({ name })`). */
	validate: (name: string) => void
	label: string
	help?: string
}) {
	return (
		<Field
			label={label}
			required
			help={help}
			inputProps={{
				...getInputProps(field, { type: 'password' }),
				autoComplete: 'new-password',
				onInput: (event) => {
					if (event.currentTarget.value.length > PASSWORD_MAX_LENGTH) validate(field.name)
				},
				onBlur: (event) => {
					if (event.currentTarget.value) validate(field.name)
				},
			}}
			errors={field.errors}
		/>
	)
}
