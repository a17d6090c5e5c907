import { AlertTriangleIcon, CircleCheckIcon, InfoIcon } from "lucide-react";
import * as React from "react";
import { cn } from "@/components/lib/cn";

const STYLES = {
  error: { box: "border-destructive/40 bg-destructive/10 text-destructive", Icon: AlertTriangleIcon },
  warning: { box: "border-warning/40 bg-warning/10 text-foreground [&>svg]:text-warning", Icon: AlertTriangleIcon },
  success: { box: "border-success/40 bg-success/10 text-foreground [&>svg]:text-success", Icon: CircleCheckIcon },
  info: { box: "border-border bg-muted/60 text-foreground [&>svg]:text-muted-foreground", Icon: InfoIcon },
} as const;

export interface AlertProps extends React.ComponentProps<"div"> {
  variant?: keyof typeof STYLES;
  title?: string;
}

/** A message box. Errors are announced to screen readers (role=alert), others politely. */
export function Alert({ variant = "info", title, className, children, ...props }: AlertProps) {
  const { box, Icon } = STYLES[variant];
  return (
    <div
      role={variant === "error" ? "alert" : "status"}
      className={cn("flex gap-3 rounded-lg border px-4 py-3 text-sm [&>svg]:mt-0.5 [&>svg]:size-4 [&>svg]:shrink-0", box, className)}
      {...props}
    >
      <Icon aria-hidden />
      <div className="flex min-w-0 flex-col gap-1">
        {title ? <p className="font-medium">{title}</p> : null}
        {children ? <div className="break-words">{children}</div> : null}
      </div>
    </div>
  );
}
