"""Uploads a log directory to an S3-compatible server, for the benchmarks
of README.md: upload.py ENDPOINT BUCKET DIR. Credentials come from the
environment (AWS_ACCESS_KEY_ID...); needs boto3 (moto's venv has it)."""
import os
import sys
from concurrent.futures import ThreadPoolExecutor

import boto3
from botocore.config import Config

endpoint, bucket, root = sys.argv[1:4]
s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                  config=Config(s3={"addressing_style": "path"}, max_pool_connections=16))
s3.create_bucket(Bucket=bucket)
files = [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs]
with ThreadPoolExecutor(16) as pool:
    list(pool.map(lambda p: s3.upload_file(p, bucket, os.path.relpath(p, root).replace(os.sep, "/")), files))
print(f"uploaded {len(files)} files to s3://{bucket}")
