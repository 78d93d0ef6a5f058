#!/usr/bin/python3
"""What cloud-init itself makes of user-data files: the merged cloud-config, as JSON.

Each file goes through cloud-init's UserDataProcessor (MIME, archives, gzip, content types),
and every part to the handler cloud-init gives it: CloudConfigPartHandler for cloud-config and
JSON patches, JinjaTemplatePartHandler (with the cloud-config and shell-script handlers as its
sub-handlers, as stages.py sets them up) for `## template: jinja` parts, which reads the
instance data from the run directory (`instance-data-sensitive.json`). The files are handled
one after the other in one handler pass, as `strata cloud-init FILE...` merges them.

    /usr/bin/python3 scripts/cloud_init_userdata.py --instance-data DATA.json FILE...

Needs Debian's cloud-init (22.4.2) and python3-jinja2. Used by scripts/diff-cloud-init.py and
to check fixtures/cloud-init/jinja by hand (its README).
"""
import argparse
import json
import logging
import os
import shutil
import sys
import tempfile

from cloudinit import handlers, helpers, user_data, util
from cloudinit.handlers.cloud_config import CloudConfigPartHandler
from cloudinit.handlers.jinja_template import JinjaTemplatePartHandler
from cloudinit.handlers.shell_script import ShellScriptPartHandler


def merged(blobs, instance_data, log_to=None):
    """The merged config cloud-init builds from the user-data blobs (bytes)."""
    logging.disable(logging.NOTSET if log_to else logging.CRITICAL)
    with tempfile.TemporaryDirectory() as tmp:
        paths = helpers.Paths({"run_dir": os.path.join(tmp, "run"), "cloud_dir": tmp})
        os.makedirs(paths.run_dir, exist_ok=True)
        if instance_data:
            shutil.copy(instance_data, paths.get_runpath("instance_data_sensitive"))
        cc = CloudConfigPartHandler(paths)
        cc.cloud_fn = None
        shell = ShellScriptPartHandler(paths)
        jinja = JinjaTemplatePartHandler(paths, sub_handlers=[cc, shell])
        udp = user_data.UserDataProcessor(paths)
        cc.handle_part(None, handlers.CONTENT_START, None, None, None, None)
        count = 0
        for blob in blobs:
            for part in udp.process(blob).walk():
                if part.get_content_maintype() == "multipart":
                    continue
                ctype = part.get_content_type()
                payload = util.fully_decoded_payload(part)
                count += 1
                name = part.get_filename() or f"part-{count:03d}"
                headers = dict(part)
                if ctype in cc.list_types():
                    cc.handle_part(None, ctype, name, payload, None, headers)
                elif ctype in jinja.list_types():
                    handlers.run_part(jinja, None, name, payload, None, headers)
        return cc.cloud_buf if cc.cloud_buf is not None else {}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--instance-data")
    ap.add_argument("--log", action="store_true", help="show cloud-init's log messages")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    if args.log:
        logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    blobs = []
    for f in args.files:
        with open(f, "rb") as fh:
            blobs.append(fh.read())
    json.dump(merged(blobs, args.instance_data, args.log), sys.stdout, indent=2, default=repr)
    print()


if __name__ == "__main__":
    main()
