"use client";
// A password-style input with a button that reveals what was typed (client
// secrets, basic-auth passwords).
import { Eye, EyeOff } from "lucide-react";
import { useState } from "react";
import { cn } from "@/components/lib/cn";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

export function SecretInput({ className, ...props }: Omit<React.ComponentProps<"input">, "type">) {
  const [shown, setShown] = useState(false);
  return (
    <div className={cn("relative flex min-w-0 flex-1", className)}>
      <Input {...props} type={shown ? "text" : "password"} autoComplete="off" spellCheck={false} className="pr-10 font-mono" />
      <Button type="button" variant="ghost" size="icon-sm" className="absolute top-0.5 right-0.5" aria-label={shown ? "Hide the value" : "Show the value"} aria-pressed={shown} onClick={() => setShown((s) => !s)}>
        {shown ? <EyeOff aria-hidden /> : <Eye aria-hidden />}
      </Button>
    </div>
  );
}
