// The form a RUN_ACTION follow-up may carry, as producers give it (NotificationAction.form returns it as JSON).
import { FormFieldTypes } from "../../domain/form.ts";
import { builder } from "./builder.ts";

export const FormFieldTypeEnum = builder.enumType("FormFieldType", { values: FormFieldTypes });

export const FormFieldInput = builder.inputType("FormFieldInput", {
  description: 'One field of a RUN_ACTION form; fixedParams entries written "$form.<name>" receive its value.',
  fields: (t) => ({
    name: t.string({ required: true, description: "1-64 letters, digits or _; referenced as $form.<name>." }),
    label: t.string({ required: true }),
    type: t.field({ type: FormFieldTypeEnum, required: true }),
    required: t.boolean({ required: false }),
    options: t.stringList({ required: false, description: "SELECT only: the values to choose from." }),
    placeholder: t.string({ required: false }),
    maxLength: t.int({ required: false, description: "TEXT and TEXTAREA: longest accepted value (default 2000)." }),
  }),
});
